import type { TokenLogprob } from "../scheduler/GenerationRequest.js";

/**
 * Answer tokens as `{token, logprob, bytes, top_logprobs}`: the entry shape OpenAI's chat
 * `logprobs.content[]` and Ollama's `logprobs[]` (its `api.Logprob`) share.
 */
export function toLogprobEntries(entries: readonly TokenLogprob[]) {
  return entries.map((entry) => ({
    token: entry.token,
    logprob: entry.logprob,
    bytes: entry.bytes,
    top_logprobs: entry.top.map((candidate) => ({
      token: candidate.token,
      logprob: candidate.logprob,
      bytes: candidate.bytes,
    })),
  }));
}
