import { TokenBias, type LlamaContext, type LlamaContextSequence, type Token } from "node-llama-cpp";
import { afterEach, describe, expect, it } from "vitest";
import { useTestModel } from "../../helpers/testModels.js";

/**
 * `patches/node-llama-cpp+3.21.1.patch`, decode ahead (`startDecodeAhead`). A sequence opted in
 * (`_perchDecodeAhead = { tokensLeft }`, as `generateOnSequence` does) queues the decode of each
 * sampled token at once, while its consumer handles the token; the next token is sampled only once
 * the consumer asks for it, from the sampler inputs the consumer left. A consumer that stops or
 * touches the sequence meanwhile finds the state it would have found without decode ahead.
 */

const loaded = useTestModel();
const contexts: LlamaContext[] = [];

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.dispose()));
});

async function newContext(): Promise<LlamaContext> {
  const context = await loaded.model.createContext({ contextSize: 512, sequences: 4, threads: 1 });
  contexts.push(context);
  return context;
}

function optIn(sequence: LlamaContextSequence, tokensLeft = 1_000): void {
  (sequence as unknown as { _perchDecodeAhead?: { tokensLeft: number } })._perchDecodeAhead = { tokensLeft };
}

const prompt = () => loaded.model.tokenize("copy this line again");

/** Resolves true once `condition` holds, false after `ms`. */
async function within(ms: number, condition: () => boolean): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return condition();
}

/** Tokens that went into a decode with their logits asked for: counted when the decode is batched. */
const decodedOutputs = (sequence: LlamaContextSequence) => sequence.tokenMeter.usedOutputTokens;

async function greedy(sequence: LlamaContextSequence, count: number): Promise<Token[]> {
  const tokens: Token[] = [];
  for await (const token of sequence.evaluate(prompt())) {
    tokens.push(token);
    if (tokens.length >= count) break;
  }
  return tokens;
}

/**
 * Generation of `count` tokens under a token bias the sampler reads when it samples: it forces
 * `forced[n]`, n being how many tokens the consumer has recorded so far, so a token sampled before
 * the consumer recorded the previous one would be the one forced a step earlier.
 */
async function forcedBy(
  sequence: LlamaContextSequence,
  forced: Token[],
  count: number,
  holdMs = 0,
): Promise<Token[]> {
  const recorded: Token[] = [];
  const tokenBias = () => {
    const bias = new TokenBias(loaded.model.tokenizer);
    const token = forced[recorded.length];
    if (token != null) bias.set(token, { logit: 100 });
    return bias;
  };
  for await (const token of sequence.evaluate(prompt(), { tokenBias })) {
    // The consumer's handling takes a while: the decode ahead runs during it.
    if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
    recorded.push(token);
    if (recorded.length >= count) break;
  }
  return recorded;
}

describe("decode ahead", () => {
  it("decodes each token while the consumer still holds it", async () => {
    const context = await newContext();
    const sequence = context.getSequence();
    optIn(sequence);
    let decodedWhileHeld = 0;
    let taken = 0;
    for await (const _token of sequence.evaluate(prompt())) {
      taken += 1;
      // The prompt's last token, then one per token taken. Without decode ahead a token is
      // decoded only once the consumer asks for the next one.
      if (await within(2_000, () => decodedOutputs(sequence) === taken + 1)) decodedWhileHeld += 1;
      if (taken >= 12) break;
    }
    expect(decodedWhileHeld).toBe(12);
  });

  it("samples every token from the inputs the consumer left, as without decode ahead", async () => {
    const context = await newContext();
    // A text the model would not write, so the bias alone decides each token.
    const forced = loaded.model
      .tokenize("zebras quietly juggle seven violet umbrellas over the harbour")
      .slice(0, 40);
    expect(forced.length).toBeGreaterThanOrEqual(20);
    const plain = await forcedBy(context.getSequence(), forced, forced.length);
    expect(plain).toEqual(forced);
    const aheadSequence = context.getSequence();
    optIn(aheadSequence);
    const ahead = await forcedBy(aheadSequence, forced, forced.length, 3);
    expect(ahead).toEqual(forced);
    // It did decode ahead: the prompt's last token, then every token taken (the last one was
    // decoded ahead too, and taken back when the consumer stopped).
    expect(decodedOutputs(aheadSequence)).toBe(forced.length + 1);
  });

  it("gives a consumer that stops the state it had without decode ahead, and the same continuation", async () => {
    const context = await newContext();
    const reference = await greedy(context.getSequence(), 30);

    const sequence = context.getSequence();
    optIn(sequence);
    const first: Token[] = [];
    for await (const token of sequence.evaluate(prompt())) {
      first.push(token);
      // Stop only once the held token has been decoded ahead, so it must be taken back.
      if (first.length >= 10 && (await within(2_000, () => decodedOutputs(sequence) === first.length + 1)))
        break;
    }
    expect(sequence.contextTokens).toEqual([...prompt(), ...first.slice(0, -1)]);
    expect(sequence.nextTokenIndex).toBe(prompt().length + first.length - 1);

    // Continuing from the last token yields what an uninterrupted run yields.
    const rest: Token[] = [];
    for await (const token of sequence.evaluate([first.at(-1)!])) {
      rest.push(token);
      if (first.length + rest.length >= 30) break;
    }
    expect([...first, ...rest]).toEqual(reference);
  });

  it("lets a consumer erase tokens while one is decoded ahead, with the outcome it had without", async () => {
    const context = await newContext();
    const run = async (sequence: LlamaContextSequence) => {
      const tokens: Token[] = [];
      for await (const token of sequence.evaluate(prompt())) {
        tokens.push(token);
        if (tokens.length === 8) {
          // Drop the last two evaluated tokens mid-generation, then go on.
          const end = sequence.nextTokenIndex;
          await sequence.eraseContextTokenRanges([{ start: end - 2, end }]);
        }
        if (tokens.length >= 16) break;
      }
      return { tokens, state: sequence.contextTokens.slice() };
    };
    const plain = await run(context.getSequence());
    const aheadSequence = context.getSequence();
    optIn(aheadSequence);
    const ahead = await run(aheadSequence);
    expect(ahead).toEqual(plain);
  });

  it("decodes the consumer's replacement input instead of the token decoded ahead", async () => {
    const context = await newContext();
    const replacement = loaded.model.tokenize("zebra")[0]!;
    const run = async (sequence: LlamaContextSequence, ahead: boolean) => {
      const tokens: Token[] = [];
      const iterator = sequence.evaluate(prompt())[Symbol.asyncIterator]();
      let input: Token | undefined;
      while (tokens.length < 16) {
        const step = await iterator.next(input);
        if (step.done) break;
        tokens.push(step.value);
        // The sixth token is replaced: the model continues from the replacement instead.
        input = tokens.length === 6 ? replacement : undefined;
        // Decoded ahead by now, so it has to be taken back.
        if (input !== undefined && ahead)
          expect(await within(2_000, () => decodedOutputs(sequence) >= tokens.length + 1)).toBe(true);
      }
      await iterator.return?.();
      return { tokens, state: sequence.contextTokens.slice() };
    };
    const plain = await run(context.getSequence(), false);
    expect(plain.state).toContain(replacement);
    const aheadSequence = context.getSequence();
    optIn(aheadSequence);
    expect(await run(aheadSequence, true)).toEqual(plain);
  });

  it("stops at the budget: no token is decoded ahead past the last one the caller will take", async () => {
    const context = await newContext();
    const sequence = context.getSequence();
    optIn(sequence, 5);
    const tokens: Token[] = [];
    const iterator = sequence.evaluate(prompt())[Symbol.asyncIterator]();
    for (let i = 0; i < 5; i++) tokens.push((await iterator.next()).value as Token);
    // The fourth token was decoded ahead; the fifth is held and the budget is spent: not decoded.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(decodedOutputs(sequence)).toBe(5);
    expect(sequence.contextTokens).toEqual([...prompt(), ...tokens.slice(0, 4)]);
    await iterator.return?.();
  });

  it("holds another sequence's decodes for a bounded time when a consumer stops reading", async () => {
    const context = await newContext();
    const stalled = context.getSequence();
    optIn(stalled);
    const iterator = stalled.evaluate(prompt())[Symbol.asyncIterator]();
    const held: Token[] = [];
    for (let i = 0; i < 3; i++) held.push((await iterator.next()).value as Token);
    expect(await within(2_000, () => decodedOutputs(stalled) === 4)).toBe(true);
    // The stalled consumer never asks for its next token; a newcomer still generates.
    const newcomer: Token[] = [];
    for await (const token of context.getSequence().evaluate(loaded.model.tokenize("alpha beta gamma"))) {
      newcomer.push(token);
      if (newcomer.length >= 8) break;
    }
    expect(newcomer).toHaveLength(8);
    // The stalled one, resumed late, goes on as it would have (its logits were lost: decoded again).
    const next = await iterator.next();
    expect(next.done).toBe(false);
    await iterator.return?.();
    const reference = await greedy(context.getSequence(), 4);
    expect([...held, next.value]).toEqual(reference);
    expect(stalled.contextTokens).toEqual([...prompt(), ...reference.slice(0, 3)]);
  });
});
