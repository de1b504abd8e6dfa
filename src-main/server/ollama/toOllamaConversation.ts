import type { OllamaChatRequest } from "../../../src-shared/contracts/ollama.js";
import { PerchError } from "../../base/PerchError.js";
import type { ConversationMessage } from "../../scheduler/GenerationRequest.js";
import type { ToolUse } from "../../tools/ToolDefinition.js";
import { functionToolUse } from "../functionToolUse.js";

/**
 * Ollama chat messages in the scheduler's shape. Ollama's tool calls carry no ids: each call gets
 * one here, and a `tool` message answers the oldest unanswered call of its `tool_name` (or the
 * oldest one when it names none). A tool message that answers no call stays user text. Images
 * are refused by name (Perch serves text models).
 */
export function toOllamaConversation(body: OllamaChatRequest): ConversationMessage[] {
  const unanswered: { id: string; name: string }[] = [];
  return body.messages.map((message, index): ConversationMessage => {
    if (message.images && message.images.length > 0) {
      throw new PerchError("invalid_request", "images are not supported: Perch serves text models only.", {
        param: `messages.${index}.images`,
      });
    }
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        const toolCalls = (message.tool_calls ?? []).map((call, callIndex) => ({
          id: `call_${index}_${callIndex}`,
          name: call.function.name,
          arguments: call.function.arguments,
        }));
        unanswered.push(...toolCalls.map(({ id, name }) => ({ id, name })));
        return {
          role: "assistant",
          content: message.content,
          ...(toolCalls.length > 0 ? { toolCalls } : {}),
        };
      }
      case "tool": {
        const position = unanswered.findIndex(
          (call) => !message.tool_name || call.name === message.tool_name,
        );
        const call = unanswered[position === -1 ? 0 : position];
        if (!call) return { role: "user", content: message.content };
        unanswered.splice(unanswered.indexOf(call), 1);
        return { role: "tool", toolCallId: call.id, content: message.content };
      }
      default:
        message.role satisfies never;
        throw new PerchError("invalid_request", "Unknown message role.", { param: `messages.${index}.role` });
    }
  });
}

/**
 * Ollama's `tools` in the neutral shape: the model decides (`auto`), several calls allowed;
 * Perch's `tool_choice` extension may force a call.
 */
export function toOllamaToolUse(body: OllamaChatRequest): ToolUse | undefined {
  return functionToolUse(body.tools, body.tool_choice, true);
}
