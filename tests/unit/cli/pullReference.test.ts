import { describe, expect, it } from "vitest";
import { downloadRequestSchema, type RepoFilesResponse } from "../../../src-shared/contracts/catalog.js";
import { parsePullReference } from "../../../src-main/cli/pull/parsePullReference.js";
import { pickDownload } from "../../../src-main/catalog/downloads/pickDownload.js";

const listing = (ggufs: { file: string; quant: string | null }[]): RepoFilesResponse => ({
  source: "hf",
  repo: "acme/m-GGUF",
  revision: "main",
  files: [],
  ggufs: ggufs.map((gguf) => ({ ...gguf, files: [gguf.file], size: 1 })),
});

describe("pull references", () => {
  it("reads repo, quant, file and the ModelScope prefix", () => {
    expect(parsePullReference("acme/m-GGUF")).toEqual({ source: "hf", repo: "acme/m-GGUF" });
    expect(parsePullReference("acme/m-GGUF:q4_k_m")).toEqual({
      source: "hf",
      repo: "acme/m-GGUF",
      quant: "q4_k_m",
    });
    expect(parsePullReference("hf:acme/m-GGUF/sub/m-Q8_0.gguf")).toEqual({
      source: "hf",
      repo: "acme/m-GGUF",
      file: "sub/m-Q8_0.gguf",
    });
    expect(parsePullReference("ms:qwen/Qwen-GGUF:Q4_K_M")).toEqual({
      source: "modelscope",
      repo: "qwen/Qwen-GGUF",
      quant: "Q4_K_M",
    });
    expect(parsePullReference("https://huggingface.co/acme/m-GGUF")).toEqual({
      source: "hf",
      repo: "acme/m-GGUF",
    });
  });

  it("reads Ollama's Hugging Face names and hub addresses without https://", () => {
    expect(parsePullReference("hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M")).toEqual({
      source: "hf",
      repo: "bartowski/Llama-3.2-1B-Instruct-GGUF",
      quant: "Q4_K_M",
    });
    expect(parsePullReference("hf.co/acme/m-GGUF")).toEqual({ source: "hf", repo: "acme/m-GGUF" });
    expect(parsePullReference("hf.co/acme/m-GGUF:latest")).toEqual({ source: "hf", repo: "acme/m-GGUF" });
    expect(parsePullReference("huggingface.co/acme/m-GGUF/m-Q8_0.gguf")).toEqual({
      source: "hf",
      repo: "acme/m-GGUF",
      file: "m-Q8_0.gguf",
    });
    // A ModelScope address is ModelScope's, with or without the ms: prefix.
    expect(parsePullReference("https://modelscope.cn/models/qwen/Qwen-GGUF:Q8_0")).toEqual({
      source: "modelscope",
      repo: "qwen/Qwen-GGUF",
      quant: "Q8_0",
    });
    expect(() => parsePullReference("ms:hf.co/acme/m-GGUF")).toThrow(/two hubs/);
  });

  it("reads a pasted file address: resolve/blob/<rev>/ is the revision, the query string is dropped", () => {
    const file = { source: "hf", repo: "acme/multi-GGUF", file: "multi-Q8_0.gguf", revision: "main" };
    for (const url of [
      "https://huggingface.co/acme/multi-GGUF/resolve/main/multi-Q8_0.gguf",
      "https://huggingface.co/acme/multi-GGUF/blob/main/multi-Q8_0.gguf",
      "https://huggingface.co/acme/multi-GGUF/resolve/main/multi-Q8_0.gguf?download=true",
      "hf.co/acme/multi-GGUF/resolve/main/multi-Q8_0.gguf",
      "https://www.huggingface.co/acme/multi-GGUF/blob/main/multi-Q8_0.gguf#L1",
    ]) {
      expect(parsePullReference(url), url).toEqual(file);
    }
    const sha = "0123456789abcdef0123456789abcdef01234567";
    expect(
      parsePullReference(`https://huggingface.co/acme/multi-GGUF/resolve/${sha}/sub/m%20x-Q8_0.gguf`),
    ).toEqual({ source: "hf", repo: "acme/multi-GGUF", file: "sub/m x-Q8_0.gguf", revision: sha });
    expect(parsePullReference("https://huggingface.co/acme/multi-GGUF/tree/refs%2Fpr%2F1")).toEqual({
      source: "hf",
      repo: "acme/multi-GGUF",
      revision: "refs/pr/1",
    });
    expect(
      parsePullReference("https://modelscope.cn/models/qwen/Qwen-GGUF/resolve/master/q-Q4_K_M.gguf"),
    ).toEqual({
      source: "modelscope",
      repo: "qwen/Qwen-GGUF",
      file: "q-Q4_K_M.gguf",
      revision: "master",
    });
    // The revision goes into the download request.
    expect(
      pickDownload(
        parsePullReference("hf.co/acme/multi-GGUF/tree/v1"),
        listing([{ file: "m.gguf", quant: null }]),
      ),
    ).toEqual({
      source: "hf",
      repo: "acme/multi-GGUF",
      revision: "v1",
      file: "m.gguf",
    });
    for (const bad of [
      "https://huggingface.co/acme/m/resolve/..%2F..%2Fx/m.gguf",
      "https://huggingface.co/acme/m/resolve/main/../m.gguf",
      "https://huggingface.co/acme/m/resolve/%E0%A4%A/m.gguf",
    ]) {
      expect(() => parsePullReference(bad), bad).toThrow(
        expect.objectContaining({ code: "invalid_request" }),
      );
    }
  });

  it("takes quantization labels with hyphens and dots as repos list them (UD-Q4_K_XL, Q4_0_4_4)", () => {
    for (const quant of ["UD-Q4_K_XL", "IQ4_XS", "Q4_0_4_4", "BF16", "UD-IQ1_S", "Q4_K_M.v2"]) {
      expect(parsePullReference(`acme/ud-GGUF:${quant}`), quant).toEqual({
        source: "hf",
        repo: "acme/ud-GGUF",
        quant,
      });
    }
    expect(parsePullReference("hf.co/unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL")).toMatchObject({
      quant: "UD-Q4_K_XL",
    });
    // The admin API's download body takes the same labels.
    const body = { source: "hf", repo: "acme/ud-GGUF", quant: "UD-Q4_K_XL" };
    expect(downloadRequestSchema.safeParse(body).success).toBe(true);
    expect(downloadRequestSchema.safeParse({ ...body, quant: "../Q4" }).success).toBe(false);
    for (const bad of [
      "acme/m:-Q4",
      "acme/m:Q4..x",
      "acme/m:.hidden",
      "acme/m:Q4/x",
      "acme/m:Q4 K",
      "acme/m:",
    ]) {
      expect(() => parsePullReference(bad), bad).toThrow(
        expect.objectContaining({ code: "invalid_request" }),
      );
    }
  });

  it("refuses what is not a reference, with the accepted forms", () => {
    for (const bad of ["acme", "acme/../x", "acme/m:Q4 K", "/etc/passwd", "acme/m/x.gguf:Q4_K_M"]) {
      expect(() => parsePullReference(bad), bad).toThrow(/owner\/repo|not both/);
    }
  });

  it("picks the only GGUF, else Q4_K_M, else lists the quantizations", () => {
    const ref = { source: "hf" as const, repo: "acme/m-GGUF" };
    expect(pickDownload(ref, listing([{ file: "m-Q8_0.gguf", quant: "Q8_0" }]))).toMatchObject({
      file: "m-Q8_0.gguf",
    });
    expect(
      pickDownload(
        ref,
        listing([
          { file: "m-Q8_0.gguf", quant: "Q8_0" },
          { file: "m-Q4_K_M.gguf", quant: "Q4_K_M" },
        ]),
      ),
    ).toMatchObject({ file: "m-Q4_K_M.gguf" });
    expect(() =>
      pickDownload(
        ref,
        listing([
          { file: "m-Q8_0.gguf", quant: "Q8_0" },
          { file: "m-F16.gguf", quant: "F16" },
        ]),
      ),
    ).toThrow("pick one with acme/m-GGUF:QUANT (Q8_0, F16)");
    expect(() => pickDownload(ref, listing([]))).toThrow("holds no GGUF");
    expect(pickDownload({ ...ref, quant: "Q2_K" }, listing([]))).toEqual({ ...ref, quant: "Q2_K" });
  });
});
