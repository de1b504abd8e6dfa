import type { TokenLogprob } from "../../scheduler/GenerationRequest.js";

/** Answer tokens in Ollama's `logprobs` shape (its `api.Logprob`: token, logprob, bytes, top_logprobs). */
export function toOllamaLogprobs(entries: readonly TokenLogprob[]) {
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
