import { describe, expect, it } from "vitest";
import { storeWith } from "./fakeClient.js";

const stats = (speed: number) => ({
  ttft_ms: 12,
  generation_tokens_per_second: speed,
  prompt_tokens: 9,
  completion_tokens: 5,
  total_ms: 100,
});

describe("compare slice", () => {
  it("sends one prompt to two models at once; each lane streams and ends with its own speed", async () => {
    let created = 0;
    const { store, subscriptions, calls } = storeWith({
      createConversation: (input) => ({
        id: `c${++created}`,
        model_id: (input as { body: { model_id: string } }).body.model_id,
      }),
      startReply: (input) => ({
        reply_id: `r-${(input as { params: { conversation_id: string } }).params.conversation_id}`,
      }),
      listConversations: () => ({ conversations: [] }),
    });
    await store.getState().setChatSettings({ system_prompt: "Be brief.", sampling: { temperature: 0 } });
    const done = store.getState().compareModels("Say hi", ["big", "small"]);
    await expect.poll(() => subscriptions.length).toBe(2);
    const bodies = calls.filter((call) => call.name === "createConversation").map((call) => call.input);
    expect(bodies).toEqual([
      {
        body: {
          system_prompt: "Be brief.",
          sampling: { temperature: 0 },
          thinking: undefined,
          model_id: "big",
          // Whose side: the model (its id here, the store has no model rows).
          title: "Say hi · big",
        },
      },
      {
        body: {
          system_prompt: "Be brief.",
          sampling: { temperature: 0 },
          thinking: undefined,
          model_id: "small",
          title: "Say hi · small",
        },
      },
    ]);
    const lane = (reply: string) =>
      subscriptions.find((entry) => (entry.params as { reply_id: string }).reply_id === reply)!;
    lane("r-c1").handlers.onEvent({ type: "text", text: "Hel" });
    lane("r-c2").handlers.onEvent({ type: "text", text: "Hi" });
    lane("r-c1").handlers.onEvent({ type: "text", text: "lo" });
    expect(store.getState().comparison!.lanes.map((entry) => [entry.text, entry.status])).toEqual([
      ["Hello", "running"],
      ["Hi", "running"],
    ]);
    const message = (content: string, speed: number) => ({
      id: "m",
      role: "assistant",
      content,
      created_at: "2026-03-01T10:00:00.000Z",
      stats: stats(speed),
    });
    lane("r-c2").handlers.onEvent({ type: "finished", message: message("Hi", 900) });
    lane("r-c1").handlers.onEvent({ type: "finished", message: message("Hello", 40) });
    await done;
    expect(store.getState().comparison!.lanes).toMatchObject([
      {
        modelId: "big",
        conversationId: "c1",
        status: "completed",
        stats: { generation_tokens_per_second: 40 },
      },
      {
        modelId: "small",
        conversationId: "c2",
        status: "completed",
        stats: { generation_tokens_per_second: 900 },
      },
    ]);
  });

  it("a model that cannot start fails its own lane only, and a new comparison closes the old streams", async () => {
    const { store, subscriptions } = storeWith({
      createConversation: (input) => {
        const modelId = (input as { body: { model_id: string } }).body.model_id;
        if (modelId === "gone") throw new Error("model not found");
        return { id: "c1", model_id: modelId };
      },
      startReply: () => ({ reply_id: "r1" }),
      listConversations: () => ({ conversations: [] }),
    });
    void store.getState().compareModels("Hi", ["ok", "gone"]);
    await expect.poll(() => store.getState().comparison!.lanes[1].status).toBe("failed");
    expect(store.getState().comparison!.lanes[0].status).toBe("running");
    void store.getState().compareModels("Again", ["ok", "ok"]);
    expect(subscriptions[0].closed).toBe(true);
    subscriptions[0].handlers.onEvent({ type: "text", text: "late" });
    expect(store.getState().comparison!.lanes.map((entry) => entry.text)).toEqual(["", ""]);
  });

  it("a side whose reply ends with finish_reason error fails with the saved reason, not an empty done", async () => {
    const { store, subscriptions } = storeWith({
      createConversation: (input) => ({
        id: "c1",
        model_id: (input as { body: { model_id: string } }).body.model_id,
      }),
      startReply: () => ({ reply_id: "r1" }),
      listConversations: () => ({ conversations: [] }),
    });
    const done = store.getState().compareModels("Hi", ["broken"]);
    await expect.poll(() => subscriptions.length).toBe(1);
    subscriptions[0].handlers.onEvent({
      type: "finished",
      message: {
        id: "m",
        role: "assistant",
        content: "",
        created_at: "2026-03-01T10:00:00.000Z",
        finish_reason: "error",
        error: { code: "model_load_failed", message: "not a GGUF file" },
      },
    });
    await done;
    expect(store.getState().comparison!.lanes[0]).toMatchObject({
      status: "failed",
      finishReason: "error",
      failure: { code: "model_load_failed", message: "not a GGUF file" },
    });
  });

  it("Stop cancels both running replies, and a side that starts after Stop is cancelled as it starts", async () => {
    let releaseSecond: () => void = () => {};
    const secondStarted = new Promise<void>((resolve) => (releaseSecond = resolve));
    const { store, subscriptions, calls } = storeWith({
      createConversation: (input) => ({ id: (input as { body: { model_id: string } }).body.model_id }),
      startReply: async (input) => {
        const id = (input as { params: { conversation_id: string } }).params.conversation_id;
        if (id === "b") await secondStarted;
        return { reply_id: `r-${id}` };
      },
      cancelReply: () => ({}),
      listConversations: () => ({ conversations: [] }),
    });
    const done = store.getState().compareModels("Hi", ["a", "b"]);
    await expect.poll(() => subscriptions.length).toBe(1);
    await store.getState().stopComparison();
    expect(store.getState().comparison!.stopping).toBe(true);
    releaseSecond();
    await expect.poll(() => subscriptions.length).toBe(2);
    const cancelled = calls
      .filter((call) => call.name === "cancelReply")
      .map((call) => (call.input as { params: { reply_id: string } }).params.reply_id);
    expect(cancelled.sort()).toEqual(["r-a", "r-b"]);
    for (const entry of subscriptions)
      entry.handlers.onEvent({
        type: "finished",
        message: {
          id: "m",
          role: "assistant",
          content: "He",
          created_at: "2026-03-01T10:00:00.000Z",
          finish_reason: "cancelled",
        },
      });
    await done;
    expect(store.getState().comparison!.lanes.map((lane) => [lane.status, lane.finishReason])).toEqual([
      ["completed", "cancelled"],
      ["completed", "cancelled"],
    ]);
  });
});
