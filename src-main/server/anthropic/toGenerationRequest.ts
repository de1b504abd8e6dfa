import crypto from "node:crypto";
import type {
  AnthropicContentBlock,
  AnthropicMessagesRequest,
} from "../../../src-shared/contracts/anthropic.js";
import { PerchError } from "../../base/PerchError.js";
import type {
  ConversationMessage,
  GenerationRequest,
  OutputConstraint,
} from "../../scheduler/GenerationRequest.js";
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
    // A system message between the turns stays where it was sent.
    if (message.role === "system") {
      messages.push({ role: "system", content: textOf(message.content) });
      continue;
    }
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

/**
 * Schema keywords the grammar cannot enforce (of the tools' arguments and of `output_config.format`),
 * as request paths for `x-perch-ignored-fields`.
 */
export function unenforcedToolFields(body: AnthropicMessagesRequest): string[] {
  const format = body.output_config?.format;
  return [
    ...(body.tools ?? []).flatMap((tool, index) =>
      unenforcedSchemaPaths(tool.input_schema, `tools[${index}].input_schema`),
    ),
    ...(format ? unenforcedSchemaPaths(format.schema, "output_config.format.schema") : []),
  ];
}

/**
 * `output_config.format`: the answer's text constrained to the JSON schema by grammar, as OpenAI's
 * `response_format` (a schema the grammar cannot express is a 400 naming this field). The grammar
 * cannot also leave the model free to call a tool, so a format with tools it may call is refused.
 */
function constraintOf(
  body: AnthropicMessagesRequest,
  tools: ToolUse | undefined,
): OutputConstraint | undefined {
  const format = body.output_config?.format;
  if (!format) return undefined;
  if (tools && tools.choice.kind !== "none")
    throw new PerchError(
      "invalid_request",
      "output_config.format cannot be combined with tools the model may call locally; set tool_choice to none or drop the format.",
      { param: "output_config.format" },
    );
  return { kind: "json_schema", schema: format.schema, param: "output_config.format" };
}

/** `disabled` switches thinking off, every other kind leaves it on; absent, the model decides. */
function thinkingOf(thinking: AnthropicMessagesRequest["thinking"]): boolean | undefined {
  switch (thinking?.type) {
    case undefined:
      return undefined;
    case "disabled":
      return false;
    case "enabled":
    case "adaptive":
    case "between_tools":
      return true;
    default:
      thinking satisfies never;
      return undefined;
  }
}

export function toGenerationRequest(body: AnthropicMessagesRequest): GenerationRequest {
  const tools = toolUseOf(body);
  const constraint = constraintOf(body, tools);
  return {
    requestId: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
    modelId: body.model,
    prompt: { kind: "chat", messages: toConversation(body) },
    sampling: { temperature: body.temperature, topP: body.top_p, topK: body.top_k },
    maxTokens: body.max_tokens,
    stop: body.stop_sequences,
    thinking: thinkingOf(body.thinking),
    ...(tools ? { tools } : {}),
    ...(constraint ? { constraint } : {}),
  };
}
