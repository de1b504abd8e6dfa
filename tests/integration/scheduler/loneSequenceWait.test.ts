import type { LlamaContext, LlamaContextSequence, Token } from "node-llama-cpp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestModel } from "../../helpers/testModels.js";

/**
 * `patches/node-llama-cpp+3.21.1.patch`, the dispatch loop's lockstep wait. After each decode the
 * loop waits for the sequences it decoded to queue their next token, bounded by a timer so that a
 * consumer that stops reading cannot hold the others up. Node fires a cleared timer's native handle
 * anyway, in the middle of the next decode, where the woken JavaScript thread takes a core from
 * ggml's threads. A sequence generating alone holds no one up: its wait arms no timer until
 * another sequence queues a decode, so a consumer that stopped reading blocks no newcomer.
 */

const loaded = useTestModel();
const contexts: LlamaContext[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(contexts.splice(0).map((context) => context.dispose()));
});

async function newContext(): Promise<LlamaContext> {
  const context = await loaded.model.createContext({ contextSize: 512, sequences: 4, threads: 1 });
  contexts.push(context);
  return context;
}

/** Counts the timers the lockstep wait arms (`setTimeout` called from `awaitSequencesStillSampling`). */
function countLockstepTimers(): { readonly count: number } {
  const counter = { count: 0 };
  const original = globalThis.setTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation(((...args: Parameters<typeof setTimeout>) => {
    if (new Error().stack?.includes("awaitSequencesStillSampling")) counter.count += 1;
    return original(...args);
  }) as typeof setTimeout);
  return counter;
}

/** Generates `count` tokens greedily on `sequence` from `text`. */
async function generate(sequence: LlamaContextSequence, text: string, count: number): Promise<Token[]> {
  const tokens: Token[] = [];
  for await (const token of sequence.evaluate(loaded.model.tokenize(text))) {
    tokens.push(token);
    if (tokens.length >= count) break;
  }
  return tokens;
}

describe("the lockstep wait of a sequence generating alone", () => {
  it("arms no timer, while sequences generating together still have their bound", async () => {
    const context = await newContext();
    const timers = countLockstepTimers();
    await generate(context.getSequence(), "alpha beta gamma", 24);
    expect(timers.count).toBe(0);

    await Promise.all([
      generate(context.getSequence(), "copy this line", 24),
      generate(context.getSequence(), "delta fox again", 24),
    ]);
    expect(timers.count).toBeGreaterThan(0);
  });

  it("is bounded once another sequence queues a decode, though the lone consumer stopped reading", async () => {
    const context = await newContext();
    const stalled = await stallAfterThreeTokens(context);
    const newcomer = await generate(context.getSequence(), "copy this line", 8);
    expect(newcomer).toHaveLength(8);
    await stalled.close();
  });

  it("ends when the lone sequence is disposed, so its id is freed", async () => {
    const context = await newContext();
    const stalled = await stallAfterThreeTokens(context);
    // Freeing the id takes the context lock, which the dispatch loop holds while it waits.
    await stalled.sequence.dispose();
    expect(context.sequencesLeft).toBe(4);
    await stalled.close();
  });
});

/** Takes three tokens on a new sequence, then stops calling next() without closing the evaluation. */
async function stallAfterThreeTokens(context: LlamaContext) {
  const sequence = context.getSequence();
  const iterator = sequence.evaluate(loaded.model.tokenize("alpha beta gamma"))[Symbol.asyncIterator]();
  for (let taken = 0; taken < 3; taken++) await iterator.next();
  return { sequence, close: async () => void (await iterator.return?.()) };
}
