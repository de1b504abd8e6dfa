import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { useTestModel } from "../../helpers/testModels.js";

/**
 * `patches/node-llama-cpp+3.21.1.patch`, third part. node-llama-cpp's batch dispatcher held the
 * context lock for as long as any sequence kept queueing decodes, and erasing a sequence's tokens
 * (what a new request on a reused slot does first) needs that lock: the new request waited for
 * every other generation to end (5-7 s TTFT at concurrency 4 on the realistic model). The
 * dispatcher now yields to such waiters between batches. This checks the order of events, not
 * times: the erase must finish while the other sequences are still generating. Saving and loading
 * a sequence's state (the prompt cache, before a slot is reused) wait for that lock the same way.
 */

const loaded = useTestModel();

const steps = 300;

/** Greedy steps, counting each generated token into `progress`. */
async function generate(sequence: LlamaContextSequence, prompt: Token[], progress: { tokens: number }) {
  const next = { generateNext: { token: true } };
  let input: Parameters<typeof sequence.controlledEvaluate>[0] = prompt.map((token, i) =>
    i === prompt.length - 1 ? [token, next] : token,
  );
  for (let step = 0; step < steps; step++) {
    const results = await sequence.controlledEvaluate(input);
    progress.tokens += 1;
    input = [[results[input.length - 1]!.next.token!, next]];
  }
}

describe("a sequence erasing its tokens while others generate", () => {
  it("gets the context lock between batches instead of after every generation ended", async () => {
    const context = await loaded.model.createContext({ contextSize: 1024, sequences: 3, threads: 1 });
    try {
      const [first, second, reused] = [context.getSequence(), context.getSequence(), context.getSequence()];
      // The reused slot holds an earlier request's tokens.
      await reused.evaluateWithoutGeneratingNewTokens(
        loaded.model.tokenize("an earlier request on this slot"),
      );
      const progress = { tokens: 0 };
      const generating = Promise.all([
        generate(first, loaded.model.tokenize("alpha beta gamma"), progress),
        generate(second, loaded.model.tokenize("copy this line again"), progress),
      ]);
      while (progress.tokens < 20) await new Promise((resolve) => setTimeout(resolve, 1));
      await reused.eraseContextTokenRanges([{ start: 0, end: reused.nextTokenIndex }]);
      const tokensWhenErased = progress.tokens;
      await generating;
      expect(reused.nextTokenIndex).toBe(0);
      // Unpatched the erase waited for both generations: tokensWhenErased was 2 × steps.
      expect(tokensWhenErased).toBeLessThan(steps);
    } finally {
      await context.dispose();
    }
  });

  it("saves and loads a state between batches too", async () => {
    const context = await loaded.model.createContext({ contextSize: 1024, sequences: 3, threads: 1 });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "perch-lock-state-"));
    try {
      const [first, second, reused] = [context.getSequence(), context.getSequence(), context.getSequence()];
      const earlier = loaded.model.tokenize("an earlier request on this slot");
      await reused.evaluateWithoutGeneratingNewTokens(earlier);
      const progress = { tokens: 0 };
      const generating = Promise.all([
        generate(first, loaded.model.tokenize("alpha beta gamma"), progress),
        generate(second, loaded.model.tokenize("copy this line again"), progress),
      ]);
      while (progress.tokens < 20) await new Promise((resolve) => setTimeout(resolve, 1));
      const file = path.join(folder, "state");
      await reused.saveStateToFile(file);
      const tokensWhenSaved = progress.tokens;
      await reused.loadStateFromFile(file, { acceptRisk: true });
      const tokensWhenLoaded = progress.tokens;
      await generating;
      expect(reused.contextTokens).toEqual(earlier);
      // Unpatched each waited for both generations: 2 × steps tokens.
      expect(tokensWhenSaved).toBeLessThan(steps);
      expect(tokensWhenLoaded).toBeLessThan(steps);
    } finally {
      await context.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
