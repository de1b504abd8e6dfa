import { describe, expect, it } from "vitest";
import { PerchError } from "../../../src-main/base/PerchError.js";
import type {
  ConversationMessage,
  GenerationRequest,
} from "../../../src-main/scheduler/GenerationRequest.js";
import { generateFitted } from "../../../src-main/server/ollama/fitOllamaChat.js";

/** A stand-in scheduler: a message costs its content's length in tokens; the context holds 100. */
const contextSize = 100;
const count = async (request: GenerationRequest) =>
  request.prompt.kind === "chat" ? request.prompt.messages.reduce((sum, m) => sum + m.content.length, 0) : 0;
const generate = async (request: GenerationRequest) => {
  const tokens = await count(request);
  if (tokens >= contextSize)
    throw new PerchError("context_length_exceeded", "too long", {
      details: { promptTokens: tokens, contextSize },
    });
  return request.prompt.kind === "chat" ? request.prompt.messages : [];
};
const chat = (messages: ConversationMessage[], maxTokens?: number): GenerationRequest => ({
  requestId: "r",
  modelId: "m",
  prompt: { kind: "chat", messages },
  sampling: {},
  ...(maxTokens !== undefined ? { maxTokens } : {}),
});
const text = (length: number, mark: string) => mark + "x".repeat(length - 1);

describe("fitting an Ollama chat to the context", () => {
  it("sends a conversation that fits as it is", async () => {
    const messages: ConversationMessage[] = [{ role: "user", content: text(50, "u") }];
    expect(await generateFitted(chat(messages), generate, count)).toEqual(messages);
  });

  it("drops whole old turns from the front, keeps the system message, starts at a user turn", async () => {
    const system: ConversationMessage = { role: "system", content: text(10, "s") };
    const messages: ConversationMessage[] = [
      system,
      { role: "user", content: text(30, "1") },
      { role: "assistant", content: text(30, "2"), toolCalls: [{ id: "c", name: "f", arguments: {} }] },
      { role: "tool", toolCallId: "c", content: text(10, "3") },
      { role: "user", content: text(20, "4") },
      { role: "assistant", content: text(20, "5") },
      { role: "user", content: text(10, "6") },
    ];
    // Room for a 20-token reply: at most 80 prompt tokens. From message 4 on: 10 + 20 + 20 + 10 = 60.
    const sent = await generateFitted(chat(messages, 20), generate, count);
    expect(sent.map((message) => message.content[0])).toEqual(["s", "4", "5", "6"]);
  });

  it("keeps the original error when even the last turn does not fit, and other errors untouched", async () => {
    const tooBig = chat([
      { role: "user", content: text(20, "a") },
      { role: "user", content: text(150, "b") },
    ]);
    await expect(generateFitted(tooBig, generate, count)).rejects.toMatchObject({
      code: "context_length_exceeded",
    });
    const failing = async () => {
      throw new PerchError("queue_full", "busy");
    };
    await expect(
      generateFitted(chat([{ role: "user", content: "x" }]), failing, count),
    ).rejects.toMatchObject({
      code: "queue_full",
    });
  });
});
