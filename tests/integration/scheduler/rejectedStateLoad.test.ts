import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LlamaCompletion } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { useTestModel } from "../../helpers/testModels.js";

/**
 * `patches/node-llama-cpp+3.21.1.patch`: `loadStateFromFile` set the sequence's tokens to none
 * before llama.cpp read the file, and llama.cpp rejects some files (wrong magic or version, more
 * tokens than the context holds) before it clears the sequence's cells. The sequence then said it
 * held nothing while its cells kept the earlier tokens, and the next prompt failed to decode
 * (positions must follow the last one in the cache). The prompt cache restores verified files
 * only, so this needs a file that verifies but that llama.cpp will not read (another build's
 * format). A rejected load now leaves the sequence empty, cells included.
 */

const loaded = useTestModel();

const greedy = { maxTokens: 12, temperature: 0 } as const;

describe("a state file llama.cpp rejects", () => {
  it.each([
    ["wrong magic", () => Buffer.from("not a llama.cpp sequence state, just bytes".repeat(8))],
    ["too many tokens", () => tooManyTokens()],
  ])("(%s) leaves the sequence empty and usable", async (_name, contents) => {
    const context = await loaded.model.createContext({ contextSize: 256, sequences: 2, threads: 1 });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "perch-rejected-state-"));
    try {
      const [reused, fresh] = [context.getSequence(), context.getSequence()];
      await reused.evaluateWithoutGeneratingNewTokens(
        loaded.model.tokenize("an earlier request held this slot"),
      );
      const file = path.join(folder, "state.bin");
      fs.writeFileSync(file, contents());
      await expect(reused.loadStateFromFile(file, { acceptRisk: true })).rejects.toThrow();
      expect(reused.contextTokens).toEqual([]);

      const prompt = "the next request on the same slot";
      const after = await new LlamaCompletion({ contextSequence: reused }).generateCompletion(prompt, greedy);
      const expected = await new LlamaCompletion({ contextSequence: fresh }).generateCompletion(
        prompt,
        greedy,
      );
      expect(after).toBe(expected);
    } finally {
      await context.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** A well-formed header (llama.cpp's `ggsq` magic and current version) claiming more tokens than fit. */
function tooManyTokens(): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x67677371, 0); // "ggsq"
  header.writeUInt32LE(3, 4); // LLAMA_STATE_SEQ_VERSION in the llama.cpp node-llama-cpp 3.21.1 ships
  header.writeUInt32LE(100_000, 8);
  return header;
}
