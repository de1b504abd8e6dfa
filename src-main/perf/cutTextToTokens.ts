/** The two tokenizer operations exact prompt cutting needs (a `LlamaModel` provides both). */
export interface PromptTokenizer {
  tokenize(text: string): readonly number[];
  detokenize(tokens: readonly number[]): string;
}

/**
 * The longest prefix of `text` that tokenizes to exactly `count` tokens. Detokenizing a token
 * slice nearly always round-trips; when a merge at the cut shifts the count, the slice is
 * corrected, and as a last resort the cut moves one character at a time (a binary search over
 * characters, since token counts grow with the text). Throws when no exact cut exists.
 */
export function cutTextToTokens(tokenizer: PromptTokenizer, text: string, count: number): string {
  if (count <= 0) return "";
  const tokens = tokenizer.tokenize(text);
  if (tokens.length < count) {
    throw new Error(`The filler text has ${tokens.length} tokens, fewer than the ${count} needed.`);
  }
  const countOf = (candidate: string) => tokenizer.tokenize(candidate).length;
  let take = count;
  const tried = new Set<number>();
  while (take > 0 && take <= tokens.length && !tried.has(take)) {
    tried.add(take);
    const candidate = tokenizer.detokenize(tokens.slice(0, take));
    const actual = countOf(candidate);
    if (actual === count) return candidate;
    take += count - actual;
  }
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (countOf(text.slice(0, middle)) >= count) high = middle;
    else low = middle + 1;
  }
  for (let end = low; end <= Math.min(text.length, low + 16); end += 1) {
    const candidate = text.slice(0, end);
    if (countOf(candidate) === count) return candidate;
  }
  throw new Error(`No cut of the filler text has exactly ${count} tokens.`);
}
