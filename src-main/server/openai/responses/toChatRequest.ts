import {
  chatCompletionRequestSchema,
  type ChatCompletionRequest,
} from "../../../../src-shared/contracts/openai.js";
import type { ResponseInputItem, ResponseRequest } from "../../../../src-shared/contracts/openaiResponses.js";
import { PerchError } from "../../../base/PerchError.js";
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
  return mapItems(items).messages;
}

/** Which input item each chat message (and each of its tool calls) came from. */
interface ItemOrigins {
  messages: ChatMessage[];
  /** Per message: the item it came from, and the item of each of its `tool_calls`. */
  origins: { item: number; calls: number[] }[];
}

function mapItems(items: readonly ResponseInputItem[]): ItemOrigins {
  const messages: ChatMessage[] = [];
  const origins: ItemOrigins["origins"] = [];
  for (const [index, item] of items.entries()) {
    switch (item.type) {
      case "function_call": {
        const call = {
          id: item.call_id,
          type: "function" as const,
          function: { name: item.name, arguments: item.arguments },
        };
        const last = messages.at(-1);
        if (last?.role === "assistant") {
          last.tool_calls = [...(last.tool_calls ?? []), call];
          origins.at(-1)!.calls.push(index);
        } else {
          messages.push({ role: "assistant", content: null, tool_calls: [call] });
          origins.push({ item: index, calls: [index] });
        }
        break;
      }
      case "function_call_output":
        messages.push({ role: "tool", tool_call_id: item.call_id, content: textOf(item.output) });
        origins.push({ item: index, calls: [] });
        break;
      case "reasoning":
        break;
      default:
        messages.push({ role: item.role, content: textOf(item.content) });
        origins.push({ item: index, calls: [] });
    }
  }
  return { messages, origins };
}

/**
 * A chat message path (`messages.2.tool_calls.0.function.name`) as the input item field it came
 * from (`input.1.name`); `undefined` for messages the input did not make (instructions, history).
 */
function inputPath(path: string, first: number, mapped: ItemOrigins): string | undefined {
  const match = /^messages\.(\d+)(?:\.(.*))?$/.exec(path);
  if (!match) return undefined;
  const origin = mapped.origins[Number(match[1]) - first];
  if (!origin) return undefined;
  const rest = match[2] ?? "";
  const call = /^tool_calls\.(\d+)(?:\.(.*))?$/.exec(rest);
  if (call) {
    const item = origin.calls[Number(call[1])] ?? origin.item;
    const field = (call[2] ?? "").replace(/^function\./, "").replace(/^id$/, "call_id");
    return `input.${item}${field ? `.${field}` : ""}`;
  }
  const field = rest
    .replace(/^tool_call_id/, "call_id")
    .replace(/^content/, mapped.messages[Number(match[1]) - first]?.role === "tool" ? "output" : "content");
  return `input.${origin.item}${field ? `.${field}` : ""}`;
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
  const mapped = mapItems(inputItemsOf(body));
  const lead: ChatMessage[] = [
    ...(body.instructions ? [{ role: "system" as const, content: body.instructions }] : []),
    ...history,
  ];
  try {
    return parseChatRequest(body, [...lead, ...mapped.messages]);
  } catch (error) {
    // Named as the item field the client sent, not the chat message it became.
    const path =
      error instanceof PerchError && error.param ? inputPath(error.param, lead.length, mapped) : undefined;
    if (!path || !(error instanceof PerchError)) throw error;
    throw new PerchError(error.code, error.message.replaceAll(error.param!, path), {
      status: error.status,
      param: path,
      details: error.details,
    });
  }
}

function parseChatRequest(body: ResponseRequest, messages: ChatMessage[]): ChatCompletionRequest {
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
