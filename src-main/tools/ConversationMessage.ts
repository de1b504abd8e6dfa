import type { ToolCall } from "./ToolDefinition.js";

/**
 * One message of a conversation as the scheduler sees it (already normalized from the OpenAI, Anthropic and
 * Ollama shapes). An assistant message may carry the tool calls it made; each `tool` message
 * answers one of those calls by id and is given back to the model in its own format, attached to
 * the call it answers.
 */
export type ConversationMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; content: string; isError?: boolean };
