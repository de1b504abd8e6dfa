import type { GenerationResult } from "../../scheduler/GenerationRequest.js";
import type { ToolCall, UnfinishedToolCall } from "../../tools/ToolDefinition.js";
import { toChatLogprobs } from "./toChatLogprobs.js";

/** `legacy`: the request used `functions`, so a call ends the turn with `function_call`. */
export const finishReasonOf = (result: GenerationResult, legacy = false) =>
  result.finishReason === "tool_calls"
    ? legacy
      ? "function_call"
      : "tool_calls"
    : result.finishReason === "length"
      ? "length"
      : "stop";

/**
 * A tool call in OpenAI's shape: arguments as a JSON string, the text the model wrote (and a
 * stream sent) where there is one. An unfinished call's text stops mid-JSON, as OpenAI's does.
 */
export const toOpenAiToolCall = (call: ToolCall | UnfinishedToolCall) => ({
  id: call.id,
  type: "function" as const,
  function: {
    name: call.name,
    arguments: call.argumentsText ?? JSON.stringify((call as ToolCall).arguments),
  },
});

/**
 * One non-streaming chat choice: text (`null` when the model only called tools), calls (legacy
 * `functions` requests: the one `function_call`), the call `max_tokens` cut off (finish reason
 * `length`, as its stream showed it), reasoning, the answer's logprobs when asked.
 */
export function toChatChoice(result: GenerationResult, index: number, legacy = false) {
  const calls = [...(result.toolCalls ?? []), ...(result.unfinishedToolCalls ?? [])].map(toOpenAiToolCall);
  return {
    index,
    message: {
      role: "assistant" as const,
      content: calls.length > 0 && result.text === "" ? null : result.text,
      ...(calls.length > 0 ? (legacy ? { function_call: calls[0]!.function } : { tool_calls: calls }) : {}),
      ...(result.reasoning ? { reasoning_content: result.reasoning } : {}),
      refusal: null,
    },
    finish_reason: finishReasonOf(result, legacy),
    logprobs: result.logprobs ? toChatLogprobs(result.logprobs) : null,
  };
}
