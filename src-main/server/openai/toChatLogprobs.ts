import type { ChatLogprobs } from "../../../src-shared/contracts/openai.js";
import type { TokenLogprob } from "../../scheduler/GenerationRequest.js";

/** Answer tokens in the shape of a chat choice's (or a streamed chunk's) `logprobs`. */
export function toChatLogprobs(entries: readonly TokenLogprob[]): ChatLogprobs {
  return {
    content: entries.map((entry) => ({
      token: entry.token,
      logprob: entry.logprob,
      bytes: entry.bytes,
      top_logprobs: entry.top.map((candidate) => ({
        token: candidate.token,
        logprob: candidate.logprob,
        bytes: candidate.bytes,
      })),
    })),
    refusal: null,
  };
}
