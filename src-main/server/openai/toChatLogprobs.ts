import type { ChatLogprobs } from "../../../src-shared/contracts/openai.js";
import type { TokenLogprob } from "../../scheduler/GenerationRequest.js";
import { toLogprobEntries } from "../toLogprobEntries.js";

/** Answer tokens in the shape of a chat choice's (or a streamed chunk's) `logprobs`. */
export function toChatLogprobs(entries: readonly TokenLogprob[]): ChatLogprobs {
  return { content: toLogprobEntries(entries), refusal: null };
}
