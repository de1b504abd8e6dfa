import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readGgufFacts } from "../../../src-main/catalog/readGgufFacts.js";
import { writeTinyGguf } from "../../helpers/writeTinyGguf.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "perch-gguf-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("readGgufFacts", () => {
  it("reads architecture, parameter count, quantization, context length and experts", async () => {
    const file = path.join(dir, "m.gguf");
    await writeTinyGguf(file, {
      architecture: "qwen3moe",
      fileType: 15,
      contextLength: 32768,
      expertCount: 8,
      tensors: [
        { name: "a", shape: [4, 8] },
        { name: "b", shape: [16] },
      ],
    });
    expect(await readGgufFacts(file)).toEqual({
      architecture: "qwen3moe",
      parameter_count: 48,
      quantization: "Q4_K_M",
      context_length: 32768,
      expert_count: 8,
      name: "tiny",
    });
  });

  it("fails on a file that is not GGUF", async () => {
    const file = path.join(dir, "bad.gguf");
    await fs.writeFile(file, "not a gguf file at all, just text");
    await expect(readGgufFacts(file)).rejects.toThrow();
  });
});
