import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import type { TokenAlternative, TokenLogprob } from "./GenerationRequest.js";
import { splitTextByTokens } from "./splitTextByTokens.js";

/** The log probability reported for a probability of zero (OpenAI's floor; JSON has no -Infinity). */
export const logprobFloor = -9999;

const toLogprob = (probability: number): number =>
  probability > 0 ? Math.max(logprobFloor, Math.log(probability)) : logprobFloor;

/** Tokens of context kept for detokenizing a token the way it reads after its predecessors. */
const trailLength = 8;

interface Sampled {
  token: Token;
  logprob: number;
  top: TokenAlternative[];
}

export interface SampledTokensOptions {
  /** Record log probabilities with this many candidates per token (`undefined`: count only). */
  top?: number;
  /** Called for every generated token that is not an end-of-generation token. */
  onToken: () => void;
}

/**
 * Every token the sampler draws on one sequence during one generation, seen where node-llama-cpp
 * draws it. `LlamaChat` and `LlamaCompletion` hand the tokens of a tool call to none of their
 * callbacks, and neither reports probabilities, but both generate through `sequence.evaluate`:
 * `watch` puts a generator over `evaluateWithMetadata` in its place for the generation, so each
 * sampled token is counted (the truth for completion tokens) and, when asked, its log probability
 * and candidates recorded. `take` then pairs the recorded tokens with the text the generator
 * actually released, so reasoning, tool-call and held-back stop tokens never reach the answer's.
 */
export class SampledTokens {
  private readonly pending: Sampled[] = [];
  /** Recently sampled tokens: the context a candidate's text is read in. */
  private readonly sampledTrail: Token[] = [];
  /** Recently released tokens: the context a released piece's text was read in. */
  private readonly releasedTrail: Token[] = [];

  constructor(
    private readonly model: LlamaModel,
    private readonly options: SampledTokensOptions,
  ) {}

  get recordsLogprobs(): boolean {
    return this.options.top !== undefined;
  }

  /**
   * Routes the sequence's `evaluate` through this recorder until the returned function restores
   * it. The sequence must belong to this generation alone (the scheduler's slot).
   */
  watch(sequence: LlamaContextSequence): () => void {
    const own = Object.getOwnPropertyDescriptor(sequence, "evaluate");
    const probabilities = this.recordsLogprobs;
    const record = (token: Token, distribution: ReadonlyMap<Token, number> | undefined) =>
      this.record(token, distribution);
    sequence.evaluate = async function* (tokens, options) {
      const iterator = sequence.evaluateWithMetadata(tokens, { probabilities }, options);
      let input: void | Token | Token[] = undefined;
      try {
        while (true) {
          const step = await iterator.next(input);
          if (step.done) return;
          const output = step.value as { token: Token; probabilities?: ReadonlyMap<Token, number> };
          record(output.token, output.probabilities);
          input = yield output.token;
        }
      } finally {
        await iterator.return();
      }
    };
    return () => {
      if (own) Object.defineProperty(sequence, "evaluate", own);
      else Reflect.deleteProperty(sequence, "evaluate");
    };
  }

  /**
   * The log probabilities of a released piece of text made of `tokens`, in order. Recorded tokens
   * before the first match were never released (reasoning handed out elsewhere, a tool call) and
   * are dropped. A released token that was never sampled is the library's re-tokenization of the
   * part of a sampled token before a stop sequence: it stands for that sampled token.
   */
  take(tokens: readonly Token[], text: string): TokenLogprob[] {
    if (!this.recordsLogprobs) return [];
    const groups: { sampled: Sampled; tokens: Token[] }[] = [];
    let standIn = false;
    for (const token of tokens) {
      const index = this.pending.findIndex((sampled) => sampled.token === token);
      if (index >= 0) {
        groups.push({ sampled: this.pending[index]!, tokens: [token] });
        this.pending.splice(0, index + 1);
        standIn = false;
        continue;
      }
      // End-of-generation tokens are never recorded: nothing to stand for.
      if (this.model.isEogToken(token)) continue;
      const last = groups.at(-1);
      if (standIn && last) {
        last.tokens.push(token);
        continue;
      }
      const next = this.pending.shift();
      if (!next) continue;
      groups.push({ sampled: next, tokens: [token] });
      standIn = true;
    }
    const pieces = splitTextByTokens(
      this.model,
      groups.map((group) => group.tokens),
      text,
      this.releasedTrail,
    );
    remember(this.releasedTrail, tokens);
    return groups.map((group, index) => ({
      ...toAlternative(pieces[index]!, group.sampled.logprob),
      top: group.sampled.top,
    }));
  }

  private record(token: Token, distribution: ReadonlyMap<Token, number> | undefined): void {
    if (this.model.isEogToken(token)) return;
    this.options.onToken();
    const { top } = this.options;
    if (top === undefined) return;
    const candidates: TokenAlternative[] = [];
    // The library lists candidates most likely first.
    for (const [candidate, probability] of distribution ?? []) {
      if (candidates.length >= top) break;
      const text = this.model.detokenize([candidate], true, this.sampledTrail);
      candidates.push(toAlternative(text, toLogprob(probability)));
    }
    this.pending.push({ token, logprob: toLogprob(distribution?.get(token) ?? 0), top: candidates });
    remember(this.sampledTrail, [token]);
  }
}

function toAlternative(token: string, logprob: number): TokenAlternative {
  return { token, logprob, bytes: [...Buffer.from(token, "utf8")] };
}

function remember(trail: Token[], tokens: readonly Token[]): void {
  trail.push(...tokens);
  if (trail.length > trailLength) trail.splice(0, trail.length - trailLength);
}
