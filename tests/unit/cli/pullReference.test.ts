import { describe, expect, it } from "vitest";
import type { RepoFilesResponse } from "../../../src-shared/contracts/catalog.js";
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
