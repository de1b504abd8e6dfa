import { trainBpeTokenizer, type BpeTokenizerModel } from "./trainBpeTokenizer.js";
import { trainingCorpus } from "./trainingCorpus.js";

export const endOfTextToken = "<|endoftext|>";
export const imStartToken = "<|im_start|>";
export const imEndToken = "<|im_end|>";

/** The vocabulary is exactly 2^10 tokens: the weights address every token by a 10-bit code. */
export const testVocabularySize = 1024;

let cached: BpeTokenizerModel | undefined;

/** The tokenizer shared by every test model variant (trained once per process; ~0.5 s). */
export function testTokenizer(): BpeTokenizerModel {
  cached ??= trainBpeTokenizer({
    corpus: trainingCorpus(),
    vocabularySize: testVocabularySize,
    specialTokens: [endOfTextToken, imStartToken, imEndToken],
  });
  return cached;
}
