import {
  chatCompletionRequestSchema,
  type ChatCompletionRequest,
} from "../../../../src-shared/contracts/openai.js";
import type { ResponseInputItem, ResponseRequest } from "../../../../src-shared/contracts/openaiResponses.js";
import { parseWith } from "../../../base/parseWith.js";

/** A chat message as `/v1/chat/completions` takes it (the shape a Responses conversation maps to). */
export type ChatMessage = ChatCompletionRequest["messages"][number];

const textOf = (content: string | { text: string }[]): string =>
  typeof content === "string" ? content : content.map((part) => part.text).join("");

/**
 * Responses input items as chat messages: message items keep their role, consecutive
 * `function_call` items become one assistant turn's `tool_calls` (joined to the assistant text
 * just before them), `function_call_output` items tool messages; reasoning items are skipped (as
 * the chat route skips reasoning sent back).
 */
export function toChatMessages(items: readonly ResponseInputItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const item of items) {
    switch (item.type) {
      case "function_call": {
        const call = {
          id: item.call_id,
          type: "function" as const,
          function: { name: item.name, arguments: item.arguments },
        };
        const last = messages.at(-1);
        if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push({ role: "assistant", content: null, tool_calls: [call] });
        break;
      }
      case "function_call_output":
        messages.push({ role: "tool", tool_call_id: item.call_id, content: textOf(item.output) });
        break;
      case "reasoning":
        break;
      default:
        messages.push({ role: item.role, content: textOf(item.content) });
    }
  }
  return messages;
}

/** The request's own input as items (a string is one user message). */
export function inputItemsOf(body: ResponseRequest): ResponseInputItem[] {
  if (body.input === undefined) return [];
  return typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
}

/**
 * The Responses request as the chat route's request, so both share one mapping onto the
 * scheduler (tool calls and results, tools, formats, thinking); `history` is the stored
 * conversation `previous_response_id` continues. `instructions` lead as a system message and are
 * not carried into later turns (OpenAI's rule).
 */
export function toChatRequest(body: ResponseRequest, history: ChatMessage[]): ChatCompletionRequest {
  const messages: ChatMessage[] = [
    ...(body.instructions ? [{ role: "system" as const, content: body.instructions }] : []),
    ...history,
    ...toChatMessages(inputItemsOf(body)),
  ];
  const format = body.text?.format;
  const choice = body.tool_choice;
  return parseWith(chatCompletionRequestSchema, {
    model: body.model,
    messages,
    ...(body.tools?.length
      ? {
          tools: body.tools.map((tool) => ({
            type: "function",
            function: {
              name: tool.name,
              ...(tool.description ? { description: tool.description } : {}),
              ...(tool.parameters ? { parameters: tool.parameters } : {}),
            },
          })),
        }
      : {}),
    ...(choice !== undefined
      ? {
          tool_choice:
            typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } },
        }
      : {}),
    ...(body.parallel_tool_calls != null ? { parallel_tool_calls: body.parallel_tool_calls } : {}),
    ...(body.max_output_tokens != null ? { max_completion_tokens: body.max_output_tokens } : {}),
    ...(body.temperature != null ? { temperature: body.temperature } : {}),
    ...(body.top_p != null ? { top_p: body.top_p } : {}),
    ...(body.reasoning?.effort ? { reasoning_effort: body.reasoning.effort } : {}),
    ...(format && format.type !== "text"
      ? {
          response_format:
            format.type === "json_object"
              ? { type: "json_object" }
              : {
                  type: "json_schema",
                  json_schema: { name: format.name ?? "response", schema: format.schema },
                },
        }
      : {}),
  });
}
