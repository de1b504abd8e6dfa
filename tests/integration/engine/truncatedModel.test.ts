import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EnginePool } from "../../../src-main/engine/EnginePool.js";
import { createLlamaProvider } from "../../../src-main/engine/createLlamaProvider.js";
import { ensureTestModels } from "../../helpers/testModels.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-truncated-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a model file cut short", () => {
  it("fails to load with llama.cpp's reason in the message, not only 'Failed to load model'", async () => {
    const { main } = await ensureTestModels();
    const truncated = path.join(dir, "truncated.gguf");
    const bytes = fs.readFileSync(main);
    // The header and tensor table stay whole; the tensor data ends early.
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    const engine = new EnginePool({
      getLlama: createLlamaProvider({ gpu: false }),
      resolveModel: async (id) => ({ id, path: truncated, settings: {} }),
      threads: 1,
      defaultTtlSeconds: 0,
    });
    try {
      const failed = await engine.load("truncated").catch((error: unknown) => error);
      expect(failed).toMatchObject({ code: "model_load_failed" });
      expect((failed as Error).message).toMatch(
        /Failed to load model: .*(file bounds|corrupted or incomplete)/,
      );
    } finally {
      await engine.unloadAll();
    }
  });
});
