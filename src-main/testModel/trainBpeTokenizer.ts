import { byteLevelEncode } from "./byteLevelEncode.js";
import { byteToUnicode } from "./byteToUnicode.js";
import { pretokenize } from "./pretokenize.js";

/** llama.cpp token types (`tokenizer.ggml.token_type`). */
export const TokenType = { normal: 1, control: 3 } as const;

export interface BpeTokenizerModel {
  /** Byte-level token texts; ids 0..255 are the single bytes in byte order, special tokens come last. */
  tokens: string[];
  tokenTypes: number[];
  /** "left right" pairs in priority order, as `tokenizer.ggml.merges` stores them. */
  merges: string[];
  specialTokens: string[];
}

export interface TrainBpeTokenizerOptions {
  corpus: string;
  /** Total vocabulary including the 256 byte tokens and the special tokens. */
  vocabularySize: number;
  /** Control tokens appended after the learned tokens; their text is cut out of the corpus before training. */
  specialTokens: readonly string[];
}

/**
 * Trains a byte-level BPE tokenizer the classic way: split into pre-tokens, start from single
 * bytes, repeatedly merge the most frequent adjacent pair. Ties break on the pair's text so the
 * result never depends on Map iteration or engine details.
 */
export function trainBpeTokenizer(options: TrainBpeTokenizerOptions): BpeTokenizerModel {
  const { corpus, vocabularySize, specialTokens } = options;
  const wordCounts = new Map<string, number>();
  const specialPattern = new RegExp(specialTokens.map(escapeRegExp).join("|"), "g");
  for (const piece of corpus.split(specialPattern))
    for (const word of pretokenize(piece)) wordCounts.set(word, (wordCounts.get(word) ?? 0) + 1);

  const words = [...wordCounts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([word, count]) => ({ symbols: byteLevelEncode(word), count }));

  const tokens = [...byteToUnicode];
  const known = new Set(tokens);
  const merges: string[] = [];
  const learnedTarget = vocabularySize - specialTokens.length;

  while (tokens.length < learnedTarget) {
    const best = mostFrequentPair(words);
    if (!best)
      throw new Error(`Corpus too small: only ${tokens.length} of ${learnedTarget} tokens could be learned`);
    const [left, right] = best;
    merges.push(`${left} ${right}`);
    const merged = left + right;
    // The same text can come from two different merges; the vocabulary keeps it once.
    if (!known.has(merged)) {
      known.add(merged);
      tokens.push(merged);
    }
    for (const word of words) word.symbols = mergePair(word.symbols, left, right);
  }

  return {
    tokens: [...tokens, ...specialTokens],
    tokenTypes: [...tokens.map(() => TokenType.normal), ...specialTokens.map(() => TokenType.control)],
    merges,
    specialTokens: [...specialTokens],
  };
}

function mostFrequentPair(
  words: readonly { symbols: string[]; count: number }[],
): [string, string] | undefined {
  const counts = new Map<string, number>();
  for (const { symbols, count } of words)
    for (let i = 0; i + 1 < symbols.length; i++) {
      const key = `${symbols[i]} ${symbols[i + 1]}`;
      counts.set(key, (counts.get(key) ?? 0) + count);
    }
  let bestKey: string | undefined;
  let bestCount = 0;
  for (const [key, count] of counts)
    if (count > bestCount || (count === bestCount && bestKey !== undefined && key < bestKey)) {
      bestKey = key;
      bestCount = count;
    }
  if (bestKey === undefined) return undefined;
  const space = bestKey.indexOf(" ");
  return [bestKey.slice(0, space), bestKey.slice(space + 1)];
}

function mergePair(symbols: string[], left: string, right: string): string[] {
  const result: string[] = [];
  for (let i = 0; i < symbols.length; i++) {
    if (i + 1 < symbols.length && symbols[i] === left && symbols[i + 1] === right) {
      result.push(left + right);
      i++;
    } else result.push(symbols[i]);
  }
  return result;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
