import { readAssetText } from "../base/readAssetText.js";

let corpus: string | undefined;

/**
 * The text the test tokenizer is trained on (trainingCorpus.txt beside this file, read once): plain
 * ASCII prose, Python, numbers, JSON and ChatML transcripts, so the learned merges look like a small
 * real tokenizer's (common words, code keywords, indentation) and the chat template's words
 * ("user", "assistant", "system") become single tokens. Changing the text changes every generated
 * model file: tests/helpers/testModels.ts fingerprints it with the generator's sources.
 */
export function trainingCorpus(): string {
  corpus ??= readAssetText("./trainingCorpus.txt", import.meta.url);
  return corpus;
}
