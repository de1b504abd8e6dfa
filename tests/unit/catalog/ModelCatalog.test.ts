import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { GgufFacts } from "../../../src-shared/contracts/catalog.js";
import { ModelCatalog } from "../../../src-main/catalog/ModelCatalog.js";
import { readGgufFacts } from "../../../src-main/catalog/readGgufFacts.js";
import { ModelSettingsStore } from "../../../src-main/settings/ModelSettingsStore.js";
import { SettingsStore } from "../../../src-main/settings/SettingsStore.js";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";
import { writeTinyGguf } from "../../helpers/writeTinyGguf.js";

let base: string;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-catalog-"));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function open(options: { modelsDirs?: string[]; health?: HealthRegistry } = {}) {
  const reads: string[] = [];
  const global = new SettingsStore({ basePath: base, env: {} });
  const settings = new ModelSettingsStore({ basePath: base });
  const catalog = new ModelCatalog({
    basePath: base,
    modelsDirs: options.modelsDirs ? () => options.modelsDirs! : () => global.modelsDirs(),
    settings,
    health: options.health,
    readFacts: async (file: string, shards: number): Promise<GgufFacts> => {
      reads.push(path.basename(file));
      return readGgufFacts(file, shards);
    },
  });
  return { catalog, settings, global, reads };
}

describe("ModelCatalog", () => {
  it("uses <base>/models when no dirs are set, adds new models, marks gone ones missing", async () => {
    const models = path.join(base, "models");
    await writeTinyGguf(path.join(models, "a.gguf"));
    await writeTinyGguf(path.join(models, "org", "repo", "b-Q4_K_M.gguf"), { fileType: 15 });
    const health = new HealthRegistry();
    const { catalog } = open({ health });
    const first = await catalog.rescan();
    expect(first).toMatchObject({
      added: ["a", "org/repo/b-Q4_K_M"],
      missing: [],
      total: 2,
      models_dirs: [models],
    });
    const entries = await catalog.list();
    expect(entries.map((entry) => [entry.id, entry.source, entry.update_status])).toEqual([
      ["a", "local", "not_applicable"],
      ["org/repo/b-Q4_K_M", "unknown", "unknown"],
    ]);
    expect(entries[1].gguf).toMatchObject({
      architecture: "llama",
      quantization: "Q4_K_M",
      parameter_count: 32,
    });

    await fs.rm(path.join(models, "a.gguf"));
    expect(await catalog.rescan()).toMatchObject({ added: [], missing: ["a"], total: 1 });
    const gone = await catalog.get("a");
    expect(gone.missing).toBe(true);
    expect((await health.list()).map((warning) => [warning.code, warning.model_id])).toEqual([
      ["missing_model", "a"],
    ]);
    await expect(catalog.resolveModel("a")).rejects.toMatchObject({ code: "model_not_found" });

    await writeTinyGguf(path.join(models, "a.gguf"));
    await catalog.rescan();
    expect((await catalog.get("a")).missing).toBe(false);
    expect(await health.list()).toEqual([]);
  });

  it("reads each GGUF header once per size+mtime, and again when the file changes", async () => {
    const models = path.join(base, "models");
    const file = path.join(models, "m.gguf");
    await writeTinyGguf(file);
    const { catalog, reads } = open();
    await catalog.rescan();
    await catalog.rescan();
    expect(reads).toEqual(["m.gguf"]);
    // A new catalog instance over the same file keeps the cache too (it is in model_catalog.json).
    const again = open();
    await again.catalog.rescan();
    expect(again.reads).toEqual([]);
    await writeTinyGguf(file, { padding: 64 });
    await again.catalog.rescan();
    expect(again.reads).toEqual(["m.gguf"]);
  });

  it("records an unreadable header as gguf_error and keeps the model", async () => {
    const models = path.join(base, "models");
    await fs.mkdir(models, { recursive: true });
    await fs.writeFile(path.join(models, "broken.gguf"), "garbage");
    const { catalog } = open();
    await catalog.rescan();
    const entry = await catalog.get("broken");
    expect(entry.gguf).toBeNull();
    expect(entry.gguf_error).toBeTruthy();
  });

  it("resolves ids for the engine with settings, rescanning once for a new file", async () => {
    const models = path.join(base, "models");
    await writeTinyGguf(path.join(models, "first.gguf"));
    const { catalog, settings } = open();
    await catalog.list();
    await writeTinyGguf(path.join(models, "org", "late.gguf"));
    await settings.set("org/late", { pinned: true });
    expect(await catalog.resolveModel("org/late")).toEqual({
      id: "org/late",
      path: path.join(models, "org", "late.gguf"),
      settings: { pinned: true },
    });
    for (const bad of ["nope", "../first", "/etc/passwd", "a\u0000b"]) {
      await expect(catalog.resolveModel(bad)).rejects.toMatchObject({ code: "model_not_found" });
    }
    await expect(catalog.get("../x")).rejects.toMatchObject({ code: "invalid_id" });
  });

  it("finds a file copied in after the first scan by its id too (the admin routes' lookup: load, rm)", async () => {
    const models = path.join(base, "models");
    await writeTinyGguf(path.join(models, "first.gguf"));
    const { catalog } = open();
    await catalog.list();
    await writeTinyGguf(path.join(models, "copied.gguf"));
    expect((await catalog.get("copied")).path).toBe(path.join(models, "copied.gguf"));
  });

  it("rescans on a miss at most once per interval, so unknown names cannot force a scan each", async () => {
    await writeTinyGguf(path.join(base, "models", "first.gguf"));
    const { catalog } = open();
    await catalog.list();
    const rescans = vi.spyOn(catalog, "rescan");
    for (const name of ["nope-1", "nope-2", "nope-3"]) {
      await expect(catalog.resolveModel(name)).rejects.toMatchObject({ code: "model_not_found" });
    }
    expect(rescans).toHaveBeenCalledTimes(1);
    const interval = ModelCatalog.missRescanIntervalMs;
    ModelCatalog.missRescanIntervalMs = 0;
    try {
      await writeTinyGguf(path.join(base, "models", "late.gguf"));
      expect((await catalog.resolveModel("late")).id).toBe("late");
      expect(rescans).toHaveBeenCalledTimes(2);
    } finally {
      ModelCatalog.missRescanIntervalMs = interval;
    }
  });

  it("follows the models dirs of the settings on reload, back to the default for an empty list", async () => {
    const other = path.join(base, "other");
    await writeTinyGguf(path.join(other, "elsewhere.gguf"));
    await writeTinyGguf(path.join(base, "models", "home.gguf"));
    const { catalog, global } = open();
    await global.update({ models_dirs: [other] });
    expect((await catalog.reload()).models_dirs).toEqual([other]);
    expect((await catalog.list()).filter((entry) => !entry.missing).map((entry) => entry.id)).toEqual([
      "elsewhere",
    ]);
    await global.update({ models_dirs: [] });
    const reloaded = await catalog.reload();
    expect(reloaded.models_dirs).toEqual([path.join(base, "models")]);
    expect((await catalog.list()).filter((entry) => !entry.missing).map((entry) => entry.id)).toEqual([
      "home",
    ]);
  });

  it("deletes a model's files inside its models dir, with the entry", async () => {
    const models = path.join(base, "models");
    await writeTinyGguf(path.join(models, "org", "repo", "x-00001-of-00002.gguf"));
    await writeTinyGguf(path.join(models, "org", "repo", "x-00002-of-00002.gguf"));
    await writeTinyGguf(path.join(models, "keep.gguf"));
    const { catalog } = open();
    await catalog.rescan();
    const deleted = await catalog.deleteModel("org/repo/x");
    expect(deleted.map((file) => path.basename(file))).toEqual([
      "x-00001-of-00002.gguf",
      "x-00002-of-00002.gguf",
    ]);
    expect(await fs.readdir(models)).toEqual(["keep.gguf"]);
    await expect(catalog.get("org/repo/x")).rejects.toMatchObject({ code: "model_not_found" });
  });

  it("keeps a Hugging Face cache blob another snapshot file still links to, removing only the link", async () => {
    const models = path.join(base, "models");
    const repo = path.join(models, "models--acme--dup");
    const oid = "a".repeat(64);
    const snapshot = "b".repeat(40);
    await writeTinyGguf(path.join(repo, "blobs", oid));
    await fs.mkdir(path.join(repo, "refs"), { recursive: true });
    await fs.writeFile(path.join(repo, "refs", "main"), snapshot);
    await fs.mkdir(path.join(repo, "snapshots", snapshot), { recursive: true });
    for (const name of ["dup-Q8_0.gguf", "dup-copy-Q8_0.gguf"]) {
      await fs.symlink(`../../blobs/${oid}`, path.join(repo, "snapshots", snapshot, name));
    }
    const { catalog } = open();
    await catalog.rescan();
    // Was: the blob went with the link, and acme/dup/dup-Q8_0 went missing.
    const deleted = await catalog.deleteModel("acme/dup/dup-copy-Q8_0");
    expect(deleted.map((file) => path.basename(file))).toEqual(["dup-copy-Q8_0.gguf"]);
    await fs.access(path.join(repo, "blobs", oid));
    await catalog.rescan();
    expect(await catalog.get("acme/dup/dup-Q8_0")).toMatchObject({ missing: false });
    // The last link takes the blob with it.
    const last = await catalog.deleteModel("acme/dup/dup-Q8_0");
    expect(last.map((file) => path.basename(file))).toEqual(["dup-Q8_0.gguf", oid]);
    await expect(fs.access(path.join(repo, "blobs", oid))).rejects.toThrow();
  });

  it("refuses to delete a file whose folder links outside the models dir", async () => {
    const models = path.join(base, "models");
    const outside = path.join(base, "outside");
    await writeTinyGguf(path.join(outside, "victim.gguf"));
    await fs.mkdir(models, { recursive: true });
    await fs.symlink(outside, path.join(models, "linked"));
    const { catalog } = open();
    await catalog.rescan();
    await expect(catalog.deleteModel("linked/victim")).rejects.toMatchObject({ code: "forbidden" });
    await fs.access(path.join(outside, "victim.gguf"));
  });

  it("moves a corrupt catalog aside, reports it and rebuilds from disk", async () => {
    await writeTinyGguf(path.join(base, "models", "m.gguf"));
    await fs.writeFile(path.join(base, "model_catalog.json"), '{"version": 1, "models": {"x": 1}}');
    const health = new HealthRegistry();
    const { catalog } = open({ health });
    expect((await catalog.list()).map((entry) => entry.id)).toEqual(["m"]);
    expect((await health.list()).map((warning) => warning.code)).toEqual(["corrupt_file"]);
    expect((await fs.readdir(base)).some((name) => name.startsWith("model_catalog.json.corrupt-"))).toBe(
      true,
    );
  });
});
