import crypto from "node:crypto";
import type {
  AnthropicContentBlock,
  AnthropicMessagesRequest,
} from "../../../src-shared/contracts/anthropic.js";
import { PerchError } from "../../base/PerchError.js";
import type { ConversationMessage, GenerationRequest } from "../../scheduler/GenerationRequest.js";
import { unenforcedSchemaPaths } from "../../tools/toFunctionSchema.js";
import type { ToolChoice, ToolUse } from "../../tools/ToolDefinition.js";

type Content = string | AnthropicContentBlock[];

const textOf = (content: Content | { type: "text"; text: string }[] | undefined): string =>
  content === undefined
    ? ""
    : typeof content === "string"
      ? content
      : content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");

/**
 * Anthropic turns in the scheduler's shape: `tool_result` blocks become tool messages (before the
 * user's text of the same turn, as the results come first), `tool_use` blocks the assistant's calls;
 * thinking blocks of earlier turns are left out of the prompt.
 */
function toConversation(body: AnthropicMessagesRequest): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  if (body.system !== undefined) messages.push({ role: "system", content: textOf(body.system) });
  for (const message of body.messages) {
    const blocks = typeof message.content === "string" ? undefined : message.content;
    if (message.role === "assistant") {
      const calls = (blocks ?? []).flatMap((block) =>
        block.type === "tool_use" ? [{ id: block.id, name: block.name, arguments: block.input }] : [],
      );
      messages.push({
        role: "assistant",
        content: textOf(message.content),
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
      continue;
    }
    for (const block of blocks ?? []) {
      if (block.type !== "tool_result") continue;
      messages.push({
        role: "tool",
        toolCallId: block.tool_use_id,
        content: textOf(block.content),
        ...(block.is_error ? { isError: true } : {}),
      });
    }
    const text = textOf(message.content);
    const onlyResults = blocks !== undefined && blocks.every((block) => block.type === "tool_result");
    if (!onlyResults || text) messages.push({ role: "user", content: text });
  }
  return messages;
}

function toolChoiceOf(choice: AnthropicMessagesRequest["tool_choice"]): ToolChoice {
  switch (choice?.type) {
    case undefined:
    case "auto":
      return { kind: "auto" };
    case "any":
      return { kind: "required" };
    case "tool":
      return { kind: "function", name: choice.name };
    case "none":
      return { kind: "none" };
    default:
      choice satisfies never;
      return { kind: "auto" };
  }
}

function toolUseOf(body: AnthropicMessagesRequest): ToolUse | undefined {
  const choice = body.tool_choice;
  if (!body.tools?.length) {
    // A call is demanded that no tool can answer: refused, as on every other route.
    if (choice?.type === "any" || choice?.type === "tool")
      throw new PerchError("invalid_request", `tool_choice '${choice.type}' needs tools to choose from.`, {
        param: "tool_choice",
      });
    return undefined;
  }
  return {
    tools: body.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.input_schema,
    })),
    choice: toolChoiceOf(choice),
    parallel: !(choice && "disable_parallel_tool_use" in choice && choice.disable_parallel_tool_use),
    idPrefix: "toolu_",
  };
}

/** Schema keywords the arguments grammar cannot enforce, as request paths for `x-perch-ignored-fields`. */
export function unenforcedToolFields(body: AnthropicMessagesRequest): string[] {
  return (body.tools ?? []).flatMap((tool, index) =>
    unenforcedSchemaPaths(tool.input_schema, `tools[${index}].input_schema`),
  );
}

export function toGenerationRequest(body: AnthropicMessagesRequest): GenerationRequest {
  const tools = toolUseOf(body);
  return {
    requestId: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
    modelId: body.model,
    prompt: { kind: "chat", messages: toConversation(body) },
    sampling: { temperature: body.temperature, topP: body.top_p, topK: body.top_k },
    maxTokens: body.max_tokens,
    stop: body.stop_sequences,
    thinking: body.thinking ? body.thinking.type === "enabled" : undefined,
    ...(tools ? { tools } : {}),
  };
}
