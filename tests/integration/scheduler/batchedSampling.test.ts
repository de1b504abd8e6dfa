import type { LlamaContext, Token } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { testModelProgram } from "../../../src-main/testModel/makeTestModel.js";
import { predictNextToken } from "../../../src-main/testModel/predictNextToken.js";
import { testModelShapes } from "../../../src-main/testModel/testModelShapes.js";
import { useTestModel } from "../../helpers/testModels.js";

/**
 * `patches/node-llama-cpp+3.21.1.patch`, second part. With several sequences llama.cpp (non-unified
 * KV cache) can store a batch's outputs out of batch order and puts them back lazily, without a
 * lock, inside the first `llama_get_logits*()` call after a decode. node-llama-cpp samples the
 * sequences of a batch in concurrent AsyncWorkers, so two of them could reorder at once and a
 * sequence would sample another sequence's logits: greedy text then changed with timing. This was
 * the intermittent divergence of the greedy-equivalence test (issue 3), with speculation off too.
 *
 * Eight sequences start at staggered times (so batch order differs from sequence order) and decode
 * greedily; every sampled token is checked against the token the test model's program gives for
 * that sequence's own history. With the gate taken out of the patched library this test failed
 * three runs out of three (18, 25 and 32 of its 80 sequences took a foreign token); patched, none
 * in 800 sequences of a longer probe.
 *
 * A decode of one token per sequence, added in sequence id order (as the patch adds them), keeps
 * its outputs in batch order: nothing is reordered, so its samples need not wait for a first one.
 * The first test holds with that exception and fails when the exception is made to cover every
 * decode; the second shows the exception is taken.
 */

const program = testModelProgram();
const features = testModelShapes.test.features;
const sequences = 8;
const steps = 160;
const rounds = 10;
const words = ["alpha", "beta", "gamma", "delta", "copy", "this", "line", "again", "and", "then", "fox"];

const loaded = useTestModel();

/** Greedy steps on one sequence; returns the first step whose token is not the program's, or -1. */
async function firstForeignToken(context: LlamaContext, prompt: Token[], delayMs: number): Promise<number> {
  const sequence = context.getSequence();
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const history: number[] = [...prompt];
  const next = { generateNext: { token: true } };
  let input: Parameters<typeof sequence.controlledEvaluate>[0] = prompt.map((token, i) =>
    i === prompt.length - 1 ? [token, next] : token,
  );
  let foreign = -1;
  for (let step = 0; step < steps; step++) {
    const results = await sequence.controlledEvaluate(input);
    const token = results[input.length - 1]!.next.token!;
    if (foreign < 0 && token !== predictNextToken(program, history, features)) foreign = step;
    history.push(token);
    input = [[token, next]];
  }
  return foreign;
}

describe("sampling the sequences of one batch", () => {
  it("gives every sequence its own logits, whatever the batch order", async () => {
    const foreign: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const context = await loaded.model.createContext({ contextSize: 512, sequences, threads: 1 });
      try {
        const results = await Promise.all(
          Array.from({ length: sequences }, (_, s) => {
            const prompt = loaded.model.tokenize(
              `${words[(s * 7 + round) % words.length]} ${words[(s * 5 + 3 * round) % words.length]} ${s}`,
            );
            return firstForeignToken(context, prompt, (sequences - s) * 3);
          }),
        );
        results.forEach((step, s) => {
          if (step >= 0) foreign.push(`round ${round} sequence ${s} step ${step}`);
        });
      } finally {
        await context.dispose();
      }
    }
    expect(foreign).toEqual([]);
  });

  it("lets the samples after a decode of one token per sequence run at once", async () => {
    const context = await loaded.model.createContext({ contextSize: 512, sequences: 4, threads: 1 });
    const gatedSamples = () =>
      (context as unknown as { _ctx: { perchGatedSamples: number } })._ctx.perchGatedSamples;
    try {
      // Four prompts queued together: their decode mixes prompts, so its outputs may be reordered
      // and the samples after it wait for a first one.
      const sampled = await Promise.all(
        Array.from({ length: 4 }, async (_, s) => {
          const sequence = context.getSequence();
          let tokens = 0;
          for await (const token of sequence.evaluate(
            loaded.model.tokenize(`${words[s]} ${words[s + 4]} ${s}`),
          )) {
            void token;
            if (++tokens >= 24) break;
          }
          return tokens;
        }),
      );
      // One sequence meets the test model's end of text early; the others take all 24 tokens.
      expect(sampled.filter((tokens) => tokens === 24).length).toBeGreaterThanOrEqual(3);
      // The prompts' decode gated the three samples after the first; the later steps, one token per
      // sequence in sequence id order, gated none (with the gate after every decode: 58 here).
      expect(gatedSamples()).toBeGreaterThan(0);
      expect(gatedSamples()).toBeLessThanOrEqual(3);
    } finally {
      await context.dispose();
    }
  });
});
