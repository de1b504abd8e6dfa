import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../../src-shared/contracts/catalog.js";
import { ollamaModelNames } from "../../../src-main/server/ollama/ollamaModelNames.js";
import { parseKeepAlive } from "../../../src-main/server/ollama/parseKeepAlive.js";
import { parseOllamaPullName } from "../../../src-main/server/ollama/parseOllamaPullName.js";

const entry = (id: string, extra: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id,
  path: `/models/${id}.gguf`,
  files: [`/models/${id}.gguf`],
  models_dir: "/models",
  missing: false,
  source: "local",
  repo: null,
  remote_path: null,
  revision: null,
  file_oid: null,
  discovered_at: "2026-01-01T00:00:00.000Z",
  downloaded_at: null,
  updated_at: null,
  last_checked_at: null,
  remote_revision: null,
  update_status: "not_applicable",
  update_error: null,
  size_bytes: 1,
  mtime_ms: 1,
  gguf: null,
  gguf_error: null,
  ...extra,
});
const hub = (repo: string, file: string) =>
  entry(`${repo}/${file.replace(/\.gguf$/, "")}`, { source: "hf", repo, remote_path: file });

describe("Ollama names of Perch models", () => {
  const entries = [
    entry("local-model"),
    hub("acme/m-GGUF", "m-Q4_K_M.gguf"),
    hub("acme/m-GGUF", "m-Q8_0.gguf"),
    hub("solo/one-GGUF", "one-IQ4_XS.gguf"),
    hub("twin/t-GGUF", "a-Q4_0.gguf"),
    hub("twin/t-GGUF", "b-Q4_0.gguf"),
    entry("gone", { missing: true }),
  ];
  const names = ollamaModelNames(entries);

  it("names Hub downloads hf.co/owner/repo:QUANT and everything else id:latest", () => {
    expect(names.nameOf(entries[0])).toBe("local-model:latest");
    expect(names.nameOf(entries[1])).toBe("hf.co/acme/m-GGUF:Q4_K_M");
    expect(names.nameOf(entries[3])).toBe("hf.co/solo/one-GGUF:IQ4_XS");
    // Two files of one repo with one label: their ids keep them apart.
    expect(names.nameOf(entries[4])).toBe("twin/t-GGUF/a-Q4_0:latest");
  });

  it("resolves ids, id:latest, listed names in any case, and a bare repo to its only or Q4_K_M model", () => {
    const resolve = (name: string) => names.resolve(name)?.id;
    expect(resolve("local-model")).toBe("local-model");
    expect(resolve("local-model:latest")).toBe("local-model");
    expect(resolve("acme/m-GGUF/m-Q8_0")).toBe("acme/m-GGUF/m-Q8_0");
    expect(resolve("hf.co/acme/m-gguf:q8_0")).toBe("acme/m-GGUF/m-Q8_0");
    expect(resolve("hf.co/acme/m-GGUF")).toBe("acme/m-GGUF/m-Q4_K_M");
    expect(resolve("hf.co/acme/m-GGUF:latest")).toBe("acme/m-GGUF/m-Q4_K_M");
    expect(resolve("huggingface.co/solo/one-GGUF")).toBe("solo/one-GGUF/one-IQ4_XS");
    expect(resolve("hf.co/twin/t-GGUF")).toBeUndefined();
    expect(resolve("gone")).toBeUndefined();
    expect(resolve("llama3.2:3b")).toBeUndefined();
    expect(resolve("__proto__")).toBeUndefined();
  });
});

describe("Ollama names with hyphenated quantization labels", () => {
  it("lists hf.co/owner/repo:UD-Q4_K_XL and resolves that name back, and /api/pull takes it", () => {
    const entries = [hub("acme/ud-GGUF", "m-UD-Q4_K_XL.gguf"), hub("acme/ud-GGUF", "m-Q8_0.gguf")];
    const names = ollamaModelNames(entries);
    expect(names.nameOf(entries[0])).toBe("hf.co/acme/ud-GGUF:UD-Q4_K_XL");
    expect(names.resolve("hf.co/acme/ud-GGUF:UD-Q4_K_XL")?.id).toBe("acme/ud-GGUF/m-UD-Q4_K_XL");
    expect(names.resolve("hf.co/acme/ud-gguf:ud-q4_k_xl")?.id).toBe("acme/ud-GGUF/m-UD-Q4_K_XL");
    expect(parseOllamaPullName(names.nameOf(entries[0]))).toEqual({
      source: "hf",
      repo: "acme/ud-GGUF",
      quant: "UD-Q4_K_XL",
    });
  });
});

describe("parseKeepAlive", () => {
  it("reads seconds and Go durations; negative keeps the model, 0 unloads it", () => {
    expect(parseKeepAlive(undefined)).toBeUndefined();
    expect(parseKeepAlive(300)).toBe(300);
    expect(parseKeepAlive("300")).toBe(300);
    expect(parseKeepAlive("5m")).toBe(300);
    expect(parseKeepAlive("1h30m")).toBe(5400);
    expect(parseKeepAlive("1.5s")).toBe(2);
    expect(parseKeepAlive("500ms")).toBe(1);
    expect(parseKeepAlive(0)).toBe(0);
    expect(parseKeepAlive("0s")).toBe(0);
    expect(parseKeepAlive(-1)).toBeNull();
    expect(parseKeepAlive("-1m")).toBeNull();
    // Longer than Go's durations (Ollama refuses them; the expiry would be no date at all).
    expect(parseKeepAlive("2562047h")).toBe(2562047 * 3600);
    expect(parseKeepAlive("720h")).toBe(720 * 3600);
    for (const bad of [
      "soon",
      "5 minutes",
      "",
      "m5",
      "1d",
      "2562048h",
      "99999999999999h",
      "-99999999999999h",
    ]) {
      expect(() => parseKeepAlive(bad), bad).toThrow(
        expect.objectContaining({ code: "invalid_request", param: "keep_alive" }),
      );
    }
  });
});

describe("parseOllamaPullName", () => {
  it("takes hf.co/owner/repo[:QUANT] only", () => {
    expect(parseOllamaPullName("hf.co/acme/m-GGUF:Q4_K_M")).toEqual({
      source: "hf",
      repo: "acme/m-GGUF",
      quant: "Q4_K_M",
    });
    expect(parseOllamaPullName("https://huggingface.co/acme/m-GGUF")).toEqual({
      source: "hf",
      repo: "acme/m-GGUF",
    });
    expect(parseOllamaPullName("hf.co/acme/m-GGUF:latest")).toEqual({ source: "hf", repo: "acme/m-GGUF" });
    for (const bad of [
      "llama3.2:3b",
      "acme/m-GGUF",
      "hf.co/acme",
      "hf.co/a/b/c",
      "hf.co/a/..:Q4",
      "hf.co/a/b:../x",
    ]) {
      expect(() => parseOllamaPullName(bad), bad).toThrow(
        expect.objectContaining({ code: "invalid_request" }),
      );
    }
  });
});
