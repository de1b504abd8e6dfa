import type { Token } from "node-llama-cpp";

interface Detokenizer {
  detokenize(tokens: readonly Token[], specialTokens?: boolean, lastTokens?: readonly Token[]): string;
}

/**
 * Splits `text`, released as the concatenation of `groups` of tokens, into one piece per group, so
 * the pieces joined are exactly `text`. A group ends where the text of the groups so far stops
 * agreeing with `text`: a token holding only the first bytes of a character gets an empty piece
 * and the token that completes the character gets all of it; the last group takes the rest (a
 * token cut by a stop sequence keeps only what was released of it).
 */
export function splitTextByTokens(
  model: Detokenizer,
  groups: readonly (readonly Token[])[],
  text: string,
  lastTokens: readonly Token[],
): string[] {
  const pieces: string[] = [];
  const tokens: Token[] = [];
  let used = 0;
  groups.forEach((group, index) => {
    tokens.push(...group);
    const end =
      index === groups.length - 1
        ? text.length
        : Math.max(used, commonPrefixLength(model.detokenize(tokens, false, lastTokens), text));
    pieces.push(text.slice(used, end));
    used = end;
  });
  return pieces;
}

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
  // Never split a surrogate pair.
  if (index > 0 && index < b.length && isHighSurrogate(b.charCodeAt(index - 1))) index -= 1;
  return index;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
