import { BpeTokenizer } from "./BpeTokenizer.js";
import { SeededRandom } from "./SeededRandom.js";
import type { BpeTokenizerModel } from "./trainBpeTokenizer.js";
import { imEndToken } from "./testTokenizer.js";

import { codeSign } from "./codeSign.js";
import { avoidedFlipBit, avoidedGuardBit, codeBits, levelBits, programLags } from "./programConstants.js";

/** One input bit of a flip condition: `sign` times that bit must be +1. */
export interface ConditionBit {
  /** An index into `programLags`, or the target code before flips. */
  source: number | "target";
  bit: number;
  sign: 1 | -1;
}

/** Flip target bit `bit` when every condition holds (conditions read the target before any flip). */
export interface FlipRule {
  bit: number;
  condition: ConditionBit[];
}

export interface ParityRule {
  /** Per entry of `programLags`: which code bits of that token this output bit multiplies. */
  lagged: number[][];
  /** Which level bits of the global (highest-priority) token it multiplies. */
  global: number[];
  sign: 1 | -1;
}

/**
 * The discrete function the generated weights compute. Every token has a 10-bit code; the next
 * token's code is built bit by bit as parities (products of ±1 bits) of the codes of the tokens
 * 0, 1, 5 and 6 positions back (`programLags`) and the level of the highest-priority token
 * anywhere in the context.
 * The output layer scores each token by how many code bits match, so the chosen token always
 * beats the runner-up by two bits' worth of logit: well separated by construction.
 *
 * - `rules`: one parity per code bit.
 * - `mixingFlips`: conditional flips (ANDs) that make the recurrence non-linear, so greedy text
 *   wanders like a random walk instead of settling into a short cycle.
 * - `draftFlip` (main model only): when the current token has all `whenOwnBits` set, the main model
 *   flips `flipBits`; the draft lacks this, so it disagrees with the main model a known fraction of the time.
 * - `stop` (main model only): when the code would match `stop` on all its bits, emit `<|im_end|>` instead.
 * - Codes with bits 8 and 9 both set are bytes that are not valid UTF-8 on their own, ASCII control
 *   characters and special tokens: the model turns bit 9 off instead of emitting one.
 */
export interface TestModelProgram {
  codeOfToken: Int32Array;
  tokenOfCode: Int32Array;
  /** Priority rank (0 = lowest) of each level. */
  rankOfLevel: number[];
  rules: ParityRule[];
  mixingFlips: FlipRule[];
  draftFlip: { whenOwnBits: number[]; flipBits: number[] };
  stop: { bits: number[]; signs: (1 | -1)[] };
  endToken: number;
}

/** Caps the hidden units a parity needs (inputs + 1). */
const maximumParityInputs = 8;

export function buildTestModelProgram(tokenizer: BpeTokenizerModel, seed: string): TestModelProgram {
  const random = new SeededRandom(`${seed}/program`);
  const vocabularySize = tokenizer.tokens.length;
  if (vocabularySize !== 1 << codeBits) throw new Error(`Vocabulary must have ${1 << codeBits} tokens`);

  const rankOfLevel = random.shuffle(Array.from({ length: 1 << levelBits }, (_, i) => i));
  const lowestLevel = rankOfLevel.indexOf(0);

  const encoder = new BpeTokenizer(tokenizer);
  const templateTokens = new Set(
    ["user", "assistant", "system", "\n"].flatMap((text) => encoder.encode(text)),
  );
  const avoided = new Set<number>(tokenizer.specialTokens.map((token) => tokenizer.tokens.indexOf(token)));
  for (let byte = 0; byte < 256; byte++)
    if (byte >= 0x80 || byte === 0x7f || (byte < 0x20 && byte !== 0x09 && byte !== 0x0a)) avoided.add(byte);
  const avoidedCount = 1 << (codeBits - 2);
  // Fill the avoided quarter with the last-learned (rarest) merges.
  for (let id = vocabularySize - 1; avoided.size < avoidedCount; id--)
    if (!templateTokens.has(id)) avoided.add(id);

  const isAvoidedCode = (code: number): boolean =>
    codeSign(code, avoidedGuardBit) === 1 && codeSign(code, avoidedFlipBit) === 1;
  const isLowest = (code: number): boolean => (code & ((1 << levelBits) - 1)) === lowestLevel;
  const freeCodes = random.shuffle(Array.from({ length: vocabularySize }, (_, code) => code));
  const codeOfToken = new Int32Array(vocabularySize).fill(-1);
  const take = (token: number, accept: (code: number) => boolean): void => {
    const index = freeCodes.findIndex(accept);
    if (index === -1) throw new Error("No code left for a token");
    codeOfToken[token] = freeCodes.splice(index, 1)[0];
  };
  // Chat template tokens sit at the lowest priority so the global token comes from the message.
  for (const token of tokenizer.specialTokens.map((text) => tokenizer.tokens.indexOf(text)))
    take(token, (code) => isAvoidedCode(code) && isLowest(code));
  for (const token of templateTokens) take(token, (code) => !isAvoidedCode(code) && isLowest(code));
  for (const token of avoided) if (codeOfToken[token] === -1) take(token, isAvoidedCode);
  for (let token = 0; token < vocabularySize; token++)
    if (codeOfToken[token] === -1) take(token, (code) => !isAvoidedCode(code));
  const tokenOfCode = new Int32Array(vocabularySize);
  codeOfToken.forEach((code, token) => (tokenOfCode[code] = token));

  const pick = (count: number, probability: number): number[] =>
    Array.from({ length: count }, (_, bit) => bit).filter(() => random.nextFloat() < probability);
  const rules: ParityRule[] = [];
  const lagProbability = [0.25, 0.15, 0.12, 0.12];
  while (rules.length < codeBits) {
    const rule: ParityRule = {
      lagged: programLags.map((_, index) => pick(codeBits, lagProbability[index])),
      global: pick(levelBits, 0.2),
      sign: random.nextFloat() < 0.5 ? 1 : -1,
    };
    const inputs = rule.lagged.reduce((sum, bits) => sum + bits.length, rule.global.length);
    if (rule.lagged[0].length + rule.lagged[1].length >= 1 && inputs <= maximumParityInputs) rules.push(rule);
  }

  // Flips touch only bits below the avoided-code guard, each bit at most once, so they never interact.
  const lowBits = random.shuffle(Array.from({ length: avoidedGuardBit }, (_, bit) => bit));
  const sources = [...programLags.map((_, index) => index), "target" as const];
  const mixingFlips: FlipRule[] = lowBits.slice(3).map((bit) => ({
    bit,
    condition: [0, 1].map((): ConditionBit => ({
      source: sources[random.nextInt(sources.length)],
      bit: random.nextInt(codeBits),
      sign: random.nextFloat() < 0.5 ? 1 : -1,
    })),
  }));
  const stopBits = random.shuffle(Array.from({ length: codeBits }, (_, bit) => bit)).slice(0, 7);
  return {
    codeOfToken,
    tokenOfCode,
    rankOfLevel,
    rules,
    mixingFlips,
    draftFlip: {
      whenOwnBits: random.shuffle(Array.from({ length: codeBits }, (_, bit) => bit)).slice(0, 3),
      flipBits: lowBits.slice(0, 3),
    },
    stop: { bits: stopBits, signs: stopBits.map(() => (random.nextFloat() < 0.5 ? 1 : -1)) },
    endToken: tokenizer.tokens.indexOf(imEndToken),
  };
}
