import { PerchError } from "../../base/PerchError.js";
import type { ChatMessage } from "./streamChat.js";

/**
 * Makes room in a conversation the server refused as longer than the model's context
 * (`context_length_exceeded`), as Ollama's CLI does: whole turns go from the front (each from a
 * user message to the next), the system messages and the last user message stay. As many turns go
 * as the error's token counts say are needed to leave a quarter of the context (at most 1024
 * tokens) for the reply, estimated by characters; at least one. Edits `messages` in place and
 * answers whether anything went: false when `error` is another error or only the last turn is left.
 */
export function dropOldestTurns(messages: ChatMessage[], error: unknown): boolean {
  if (!(error instanceof PerchError) || error.code !== "context_length_exceeded") return false;
  const { promptTokens, contextSize } = (error.details ?? {}) as {
    promptTokens?: unknown;
    contextSize?: unknown;
  };
  const characters = (list: ChatMessage[]) => list.reduce((sum, message) => sum + message.content.length, 0);
  const total = characters(messages);
  // Without counts (a prompt too long to count whole), one turn at a time.
  const budget =
    typeof promptTokens === "number" && typeof contextSize === "number" && promptTokens > 0
      ? ((contextSize - Math.min(Math.floor(contextSize / 4), 1024)) * total) / promptTokens
      : Infinity;
  let dropped = false;
  for (;;) {
    const first = messages.findIndex((message) => message.role !== "system");
    const next = messages.findIndex((message, index) => index > first && message.role === "user");
    if (first < 0 || next < 0) return dropped;
    messages.splice(first, next - first);
    dropped = true;
    if (characters(messages) <= budget) return true;
  }
}
