import type { Conversation } from "../../src-shared/contracts/chat.js";
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
      ? { kind: "json_schema", schema: parseJsonSchema(conversation.json_schema) }
      : undefined,
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
