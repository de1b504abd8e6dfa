import type { Verdict } from "./questionResult.js";
import { extractCodeBlocks } from "./text/extractCodeBlocks.js";
import { looksLikeCode } from "./text/looksLikeCode.js";

/** `no_code` when the answer has neither a fenced block nor a line that reads as Python; else null. */
export function noCodeVerdict(answer: string): Verdict | null {
  if (answer.trim() && (extractCodeBlocks(answer).length > 0 || looksLikeCode(answer))) return null;
  const error = answer.trim() ? "no code found in the response" : "the response is empty (after reasoning)";
  return { correct: false, failureType: "no_code", error, extracted: null };
}
