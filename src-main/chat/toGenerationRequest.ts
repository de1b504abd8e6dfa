import type { Conversation } from "../../src-shared/contracts/chat.js";
import type { ToolUse } from "../tools/ToolDefinition.js";
import { PerchError } from "../base/PerchError.js";
import type { ChatMessage, GenerationRequest } from "../scheduler/GenerationRequest.js";
import { errorMessage } from "../base/describeError.js";

/**
 * The scheduler request that answers a conversation's last user message: the system prompt,
 * the exchange so far (failed replies without text are left out), its sampling, thinking switch
 * and JSON schema.
 */
export function conversationToGenerationRequest(
  conversation: Conversation,
  requestId: string,
): Omit<GenerationRequest, "signal" | "onText" | "onReasoning"> {
  if (!conversation.model_id) {
    throw new PerchError("invalid_request", "Pick a model for this conversation first.", {
      param: "model_id",
    });
  }
  const messages: ChatMessage[] = [];
  if (conversation.system_prompt.trim())
    messages.push({ role: "system", content: conversation.system_prompt });
  for (const message of conversation.messages) {
    if (message.role === "assistant" && !message.content) continue;
    messages.push({ role: message.role, content: message.content });
  }
  const { sampling } = conversation;
  return {
    requestId,
    modelId: conversation.model_id,
    prompt: { kind: "chat", messages },
    sampling: {
      temperature: sampling.temperature,
      topP: sampling.top_p,
      topK: sampling.top_k,
      minP: sampling.min_p,
      repeatPenalty: sampling.repetition_penalty,
      seed: sampling.seed,
    },
    maxTokens: sampling.max_tokens,
    thinking: conversation.thinking ?? undefined,
    constraint: conversation.json_schema
      ? { kind: "json_schema", schema: parseJsonSchema(conversation.json_schema), param: "json_schema" }
      : undefined,
    tools: conversation.tools ? parseChatTools(conversation.tools, conversation.tool_choice) : undefined,
  };
}

/**
 * The conversation's tools text (OpenAI's `[{type: "function", function: {name, description,
 * parameters}}]`, the shape people paste) as the scheduler's tools; a clear 400 naming `tools` when
 * it is not that.
 */
export function parseChatTools(text: string, choice: "auto" | "required" = "auto"): ToolUse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PerchError("invalid_request", `The tools are not valid JSON: ${errorMessage(error)}`, {
      param: "tools",
    });
  }
  const entries = Array.isArray(value) ? value : [];
  const tools = entries.map((entry: unknown) => {
    const fn = (
      entry as { function?: { name?: unknown; description?: unknown; parameters?: unknown } } | null
    )?.function;
    const parameters = fn?.parameters;
    if (typeof fn?.name !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(fn.name)) return null;
    if (
      parameters !== undefined &&
      (typeof parameters !== "object" || parameters === null || Array.isArray(parameters))
    )
      return null;
    return {
      name: fn.name,
      ...(typeof fn.description === "string" ? { description: fn.description } : {}),
      ...(parameters ? { parameters: parameters as Record<string, unknown> } : {}),
    };
  });
  if (entries.length === 0 || tools.some((tool) => tool === null)) {
    throw new PerchError(
      "invalid_request",
      'The tools must be a non-empty JSON array of {"type": "function", "function": {"name", "parameters"}}.',
      { param: "tools" },
    );
  }
  return {
    tools: tools as NonNullable<(typeof tools)[number]>[],
    choice: { kind: choice },
    parallel: true,
    idPrefix: "call_",
  };
}

/** The conversation's schema text as an object; a clear 400 when it is not one. */
export function parseJsonSchema(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PerchError("invalid_request", `The JSON schema is not valid JSON: ${errorMessage(error)}`, {
      param: "json_schema",
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new PerchError("invalid_request", "The JSON schema must be a JSON object.", {
      param: "json_schema",
    });
  }
  return value as Record<string, unknown>;
}
