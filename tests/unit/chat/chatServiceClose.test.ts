import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChatService } from "../../../src-main/chat/ChatService.js";
import { ConversationStore } from "../../../src-main/chat/ConversationStore.js";
import type { GenerationRequest, GenerationResult } from "../../../src-main/scheduler/GenerationRequest.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A generation that streams a little, then, once stopped, still takes `settleMs` to give back (a
 * decode in flight finishes first, as the scheduler's does on a busy machine).
 */
function slowToStop(settleMs: number) {
  return (request: GenerationRequest): Promise<GenerationResult> =>
    new Promise((resolve) => {
      request.onText?.("Once upon a time");
      request.signal?.addEventListener("abort", () => {
        setTimeout(
          () =>
            resolve({
              requestId: "r",
              text: "Once upon a time",
              finishReason: "cancelled",
              usage: { promptTokens: 3, completionTokens: 4, cachedPromptTokens: 0 },
              timings: {
                queueWaitMs: 0,
                ttftMs: 1,
                promptTokensPerSecond: 1,
                generationTokensPerSecond: 1,
                totalMs: 2,
              },
            }),
          settleMs,
        );
      });
    });
}

describe("ChatService.close", () => {
  it("waits until every running reply is saved as stopped (the process exits right after)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-chat-close-"));
    dirs.push(dir);
    const store = new ConversationStore({ dir });
    const chat = new ChatService({ store, generate: slowToStop(150) });
    const first = await store.create({ model_id: "m" });
    const second = await store.create({ model_id: "m" });
    await chat.startReply(first.id, { action: "send", content: "Tell me a story" });
    await chat.startReply(second.id, { action: "send", content: "Tell me another" });

    await chat.close();

    for (const id of [first.id, second.id]) {
      const saved = JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), "utf8"));
      expect(saved.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
      expect(saved.messages[1]).toMatchObject({ content: "Once upon a time", finish_reason: "cancelled" });
    }
    expect(chat.runningReply(first.id)).toBeNull();
  });

  it("returns at once when nothing is running", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-chat-close-"));
    dirs.push(dir);
    const chat = new ChatService({ store: new ConversationStore({ dir }), generate: slowToStop(10_000) });
    await expect(chat.close()).resolves.toBeUndefined();
  });
});
