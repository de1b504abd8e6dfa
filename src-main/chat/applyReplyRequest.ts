import type { ChatMessage, Conversation, ReplyRequest } from "../../src-shared/contracts/chat.js";
import { PerchError } from "../base/PerchError.js";

/**
 * Changes the conversation so its last message is the user message to answer: `send` appends
 * it, `edit` rewrites an earlier user message and drops what followed, `regenerate` drops the
 * replies after the last user message.
 */
export function applyReplyRequest(
  conversation: Conversation,
  request: ReplyRequest,
  newMessage: () => Pick<ChatMessage, "id" | "created_at">,
): void {
  const { messages } = conversation;
  if (request.action === "send") {
    messages.push({ ...newMessage(), role: "user", content: request.content });
  } else if (request.action === "edit") {
    const index = messages.findIndex((message) => message.id === request.message_id);
    if (index < 0 || messages[index]?.role !== "user") {
      throw new PerchError(
        "invalid_request",
        `No user message '${request.message_id}' in this conversation.`,
        {
          param: "message_id",
        },
      );
    }
    messages.splice(index + 1);
    messages[index] = { ...messages[index]!, content: request.content };
  } else {
    while (messages.at(-1)?.role === "assistant") messages.pop();
    if (messages.length === 0) {
      throw new PerchError("invalid_request", "There is no message to answer again.");
    }
  }
  // A new conversation is named after its first question, as chat apps do.
  if (conversation.title === "New chat" && messages[0]?.role === "user") {
    conversation.title = titleFrom(messages[0].content);
  }
}

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || "New chat";
}
