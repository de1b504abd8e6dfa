import type { CompletionLogprobs } from "../../../src-shared/contracts/openai.js";
import type { TokenLogprob } from "../../scheduler/GenerationRequest.js";

/**
 * Answer tokens in the legacy completion shape. `offset`: where the first token starts in the
 * choice's text (after an echoed prompt, or after the pieces already streamed). Each token's
 * candidates include the token itself, as OpenAI's legacy API always returns the chosen one.
 */
export function toCompletionLogprobs(entries: readonly TokenLogprob[], offset = 0): CompletionLogprobs {
  let position = offset;
  const textOffset = entries.map((entry) => {
    const start = position;
    // In characters (code points), as OpenAI counts them.
    position += [...entry.token].length;
    return start;
  });
  return {
    tokens: entries.map((entry) => entry.token),
    token_logprobs: entries.map((entry) => entry.logprob),
    top_logprobs: entries.map((entry) => {
      // No prototype: a token may read "__proto__".
      const candidates = Object.create(null) as Record<string, number>;
      // Two candidates may read the same (special tokens read empty): the likelier one stays.
      for (const candidate of entry.top) candidates[candidate.token] ??= candidate.logprob;
      candidates[entry.token] ??= entry.logprob;
      return candidates;
    }),
    text_offset: textOffset,
  };
}
