import { trainBpeTokenizer, type BpeTokenizerModel } from "./trainBpeTokenizer.js";
import { trainingCorpus } from "./trainingCorpus.js";

export const endOfTextToken = "<|endoftext|>";
export const imStartToken = "<|im_start|>";
export const imEndToken = "<|im_end|>";
/** Fill-in-the-middle control tokens (Qwen2.5-Coder's spelling), in the "fim" variant only. */
export const fimPrefixToken = "<|fim_prefix|>";
export const fimSuffixToken = "<|fim_suffix|>";
export const fimMiddleToken = "<|fim_middle|>";

/** The vocabulary is exactly 2^10 tokens: the weights address every token by a 10-bit code. */
export const testVocabularySize = 1024;

const cached = new Map<boolean, BpeTokenizerModel>();

/**
 * The tokenizer of the test model variants (trained once per process; ~0.5 s). With `fim`, the
 * fill-in-the-middle variant's: the same corpus with three more control tokens, so three merges
 * fewer (the vocabulary stays 2^10).
 */
export function testTokenizer(options: { fim?: boolean } = {}): BpeTokenizerModel {
  const fim = options.fim ?? false;
  let tokenizer = cached.get(fim);
  if (!tokenizer) {
    tokenizer = trainBpeTokenizer({
      corpus: trainingCorpus(),
      vocabularySize: testVocabularySize,
      specialTokens: [
        endOfTextToken,
        imStartToken,
        imEndToken,
        ...(fim ? [fimPrefixToken, fimSuffixToken, fimMiddleToken] : []),
      ],
    });
    cached.set(fim, tokenizer);
  }
  return tokenizer;
}
