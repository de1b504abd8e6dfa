import type { GenerationResult } from "../../scheduler/GenerationRequest.js";

export const finishReasonOf = (result: GenerationResult) =>
  result.finishReason === "tool_calls" ? "tool_calls" : result.finishReason === "length" ? "length" : "stop";

/** A tool call in OpenAI's shape: arguments as a JSON string. */
export const toOpenAiToolCall = (call: NonNullable<GenerationResult["toolCalls"]>[number]) => ({
  id: call.id,
  type: "function" as const,
  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
});

/** One non-streaming chat choice: text (`null` when the model only called tools), calls, reasoning. */
export function toChatChoice(result: GenerationResult, index: number) {
  const calls = result.toolCalls ?? [];
  return {
    index,
    message: {
      role: "assistant" as const,
      content: calls.length > 0 && result.text === "" ? null : result.text,
      ...(calls.length > 0 ? { tool_calls: calls.map(toOpenAiToolCall) } : {}),
      ...(result.reasoning ? { reasoning_content: result.reasoning } : {}),
      refusal: null,
    },
    finish_reason: finishReasonOf(result),
    logprobs: null,
  };
}
