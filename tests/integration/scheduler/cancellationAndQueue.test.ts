import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { createSchedulerFixture, greedyRequest, waitFor, type SchedulerFixture } from "./schedulerFixture.js";

const long = (id: string, modelId: string, extra = {}) =>
  greedyRequest(
    id,
    modelId,
    { kind: "text", text: "count with me: one two three" },
    {
      maxTokens: 4000,
      ignoreEos: true,
      ...extra,
    },
  );

describe("cancellation, queueing and limits", () => {
  let fixture: SchedulerFixture;
  const settings: ModelSettings = { context_size: 4096, max_concurrent_requests: 2, max_queue: 1 };

  beforeAll(async () => {
    fixture = await createSchedulerFixture(
      {
        main: { file: "main", settings },
        single: { file: "main", settings: { ...settings, max_concurrent_requests: 1, max_queue: 1 } },
        small: { file: "main", settings: { ...settings, context_size: 256 } },
        json: { file: "main", settings: { ...settings, speculative: { mode: "lookup" } } },
        // The target waits for 16 drafted tokens before every decode.
        waiting: {
          file: "main",
          settings: {
            ...settings,
            speculative: { mode: "draft", draftModel: "draft-model", minDraftTokens: 16, maxDraftTokens: 16 },
          },
        },
        "draft-model": { file: "draft", settings: {} },
      },
      { draftMinConfidence: 0 },
    );
  });

  afterAll(async () => {
    await fixture?.close();
  });

  const model = (id: string) => fixture.scheduler.stats().models.find((entry) => entry.modelId === id);

  it("an abort mid-stream releases the sequence within one decode step and never blocks the other", async () => {
    const controller = new AbortController();
    let streamed = "";
    const cancelled = fixture.scheduler.generate(
      long("victim", "main", { signal: controller.signal, onText: (text: string) => (streamed += text) }),
    );
    const other = fixture.scheduler.generate(long("other", "main", { maxTokens: 300 }));
    await waitFor(
      () => streamed.length > 0 && model("main")?.activeSequences === 2,
      "both requests streaming",
    );
    const tokensAtAbort = model("main")!.generatedTokensLastMinute;
    const streamedAtAbort = streamed;
    controller.abort();
    const result = await cancelled;
    // Right after the cancelled request settled its sequence is free again.
    expect(model("main")?.activeSequences).toBe(1);
    expect(result.finishReason).toBe("cancelled");
    expect(streamed).toBe(streamedAtAbort);
    // One decode step serves both sequences: at most one more token each before the abort is seen.
    expect(model("main")!.generatedTokensLastMinute - tokensAtAbort).toBeLessThanOrEqual(2);
    const finished = await other;
    expect(finished.finishReason).toBe("length");
    expect(finished.usage.completionTokens).toBeGreaterThanOrEqual(300);
    expect(model("main")?.activeSequences).toBe(0);
  });

  it("a join or an abort while the owner waits for drafted tokens never stalls it", async () => {
    let streamed = "";
    const owner = fixture.scheduler.generate(
      long("owner", "waiting", { maxTokens: 200, onText: (text: string) => (streamed += text) }),
    );
    await waitFor(
      () => streamed.length > 0 && model("waiting")?.speculation.owner === "owner",
      "speculation",
    );
    // The join drops the owner's draft session while its decode waits on it.
    const joiner = await fixture.scheduler.generate(long("joiner", "waiting", { maxTokens: 20 }));
    expect(joiner.usage.completionTokens).toBeGreaterThanOrEqual(20);
    expect((await owner).usage.completionTokens).toBeGreaterThanOrEqual(200);

    const controller = new AbortController();
    let started = false;
    const aborted = fixture.scheduler.generate(
      long("aborted", "waiting", { signal: controller.signal, onText: () => (started = true) }),
    );
    await waitFor(() => started && model("waiting")?.speculation.owner === "aborted", "speculation");
    controller.abort();
    expect((await aborted).finishReason).toBe("cancelled");
    expect(model("waiting")?.activeSequences).toBe(0);
  });

  it("unloading the draft model mid-speculation switches speculation off; the target carries on", async () => {
    let streamed = "";
    const running = fixture.scheduler.generate(
      long("draft-gone", "waiting", { maxTokens: 150, onText: (text: string) => (streamed += text) }),
    );
    await waitFor(
      () => streamed.length > 0 && model("waiting")?.speculation.owner === "draft-gone",
      "speculation",
    );
    expect(await fixture.engine.unload("draft-model")).toBe(true);
    const result = await running;
    expect(result.finishReason).toBe("length");
    expect(result.usage.completionTokens).toBeGreaterThanOrEqual(150);
    expect(model("waiting")?.speculation).toMatchObject({ mode: "draft", enabled: false, owner: null });
  });

  it("an abort during a long prompt's prefill cancels before any token", async () => {
    const controller = new AbortController();
    const prompt = Array.from({ length: 700 }, (_, index) => `word${index % 50}`).join(" ");
    const pending = fixture.scheduler.generate(
      greedyRequest(
        "prefill",
        "main",
        { kind: "text", text: prompt },
        { maxTokens: 10, signal: controller.signal },
      ),
    );
    await waitFor(() => model("main")?.activeSequences === 1, "the request to take a sequence");
    controller.abort();
    const result = await pending;
    expect(result.finishReason).toBe("cancelled");
    expect(result.usage.completionTokens).toBe(0);
    expect(model("main")?.activeSequences).toBe(0);
  });

  it("a full queue answers 429; an aborted waiter leaves the queue at once", async () => {
    const running = new AbortController();
    const first = fixture.scheduler.generate(long("running", "single", { signal: running.signal }));
    await waitFor(() => model("single")?.activeSequences === 1, "the first request to run");
    const waiting = new AbortController();
    const queued = fixture.scheduler.generate(
      long("queued", "single", { signal: waiting.signal, maxTokens: 5 }),
    );
    await waitFor(() => model("single")?.queueDepth === 1, "the second request to queue");

    const rejected = await fixture.scheduler
      .generate(long("rejected", "single"))
      .catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(PerchError);
    expect(rejected).toMatchObject({ code: "queue_full", status: 429 });

    waiting.abort();
    await expect(queued).rejects.toMatchObject({ code: "cancelled" });
    expect(model("single")?.queueDepth).toBe(0);

    running.abort();
    expect((await first).finishReason).toBe("cancelled");
    expect(model("single")?.requests).toMatchObject({ rejected: 1, cancelled: 2 });
    // The freed sequence serves the next request.
    const next = await fixture.scheduler.generate(long("next", "single", { maxTokens: 4 }));
    expect(next.finishReason).toBe("length");
    expect(next.timings.queueWaitMs).toBeGreaterThanOrEqual(0);
  });

  it("a waiter gets the sequence as soon as it frees", async () => {
    const first = fixture.scheduler.generate(long("first", "single", { maxTokens: 40 }));
    await waitFor(() => model("single")?.activeSequences === 1, "the first request to run");
    const second = fixture.scheduler.generate(long("second", "single", { maxTokens: 4 }));
    await waitFor(() => model("single")?.queueDepth === 1, "the second request to queue");
    const [a, b] = await Promise.all([first, second]);
    expect(a.usage.completionTokens).toBeGreaterThanOrEqual(40);
    expect(b.timings.queueWaitMs).toBeGreaterThan(0);
    expect(b.usage.completionTokens).toBeGreaterThanOrEqual(4);
  });

  it("a prompt longer than the context answers context_length_exceeded; maxTokens is capped to the room left", async () => {
    const prompt = Array.from({ length: 400 }, (_, index) => `w${index}`).join(" ");
    await expect(
      fixture.scheduler.generate(greedyRequest("too-long", "small", { kind: "text", text: prompt })),
    ).rejects.toMatchObject({ code: "context_length_exceeded", status: 400, param: "prompt" });
    const messages = [{ role: "user" as const, content: prompt }];
    await expect(
      fixture.scheduler.generate(greedyRequest("too-long-chat", "small", { kind: "chat", messages })),
    ).rejects.toMatchObject({ code: "context_length_exceeded", status: 400, param: "messages" });

    const result = await fixture.scheduler.generate(
      greedyRequest("capped", "small", { kind: "text", text: "hi" }, { ignoreEos: true, maxTokens: 100_000 }),
    );
    expect(result.finishReason).toBe("length");
    expect(result.usage.promptTokens + result.usage.completionTokens).toBeLessThanOrEqual(257);
    expect(result.usage.completionTokens).toBeGreaterThan(200);
  });

  it("reuses the cached prompt prefix of a sequence", async () => {
    const messages = [
      { role: "system" as const, content: "You are a counting assistant. Count carefully and slowly." },
      { role: "user" as const, content: "one two three" },
    ];
    const first = await fixture.scheduler.generate(
      greedyRequest("prefix-1", "main", { kind: "chat", messages }, { maxTokens: 4 }),
    );
    const second = await fixture.scheduler.generate(
      greedyRequest(
        "prefix-2",
        "main",
        { kind: "chat", messages: [...messages.slice(0, 1), { role: "user", content: "four five" }] },
        { maxTokens: 4 },
      ),
    );
    expect(first.usage.cachedPromptTokens).toBeLessThan(first.usage.promptTokens);
    expect(second.usage.cachedPromptTokens).toBeGreaterThan(10);
  });

  it("json constraints produce JSON and never speculate", async () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string" }, count: { type: "number" } },
      required: ["name", "count"],
    };
    const results = await Promise.all([
      fixture.scheduler.generate(
        greedyRequest(
          "json-object",
          "json",
          { kind: "chat", messages: [{ role: "user", content: "json please" }] },
          {
            constraint: { kind: "json_object" },
            maxTokens: 400,
          },
        ),
      ),
      fixture.scheduler.generate(
        greedyRequest(
          "json-schema",
          "json",
          { kind: "chat", messages: [{ role: "user", content: "json please" }] },
          {
            constraint: { kind: "json_schema", schema },
            maxTokens: 400,
          },
        ),
      ),
    ]);
    for (const result of results) expect(result.speculative).toBeUndefined();
    const [object, schemaResult] = results;
    // A random-weight model may fill a string until maxTokens; whenever it closes the JSON, it parses.
    for (const result of results) expect(result.text.trimStart().startsWith("{")).toBe(true);
    if (object.finishReason === "stop") expect(typeof JSON.parse(object.text)).toBe("object");
    if (schemaResult.finishReason === "stop") {
      expect(JSON.parse(schemaResult.text)).toEqual({ name: expect.any(String), count: expect.any(Number) });
    }
    expect(model("json")?.speculation.sessionsCreated).toBe(0);
  });

  it("stop strings end the text before them", async () => {
    const free = await fixture.scheduler.generate(
      greedyRequest("free", "main", { kind: "text", text: "stop here" }, { maxTokens: 60, ignoreEos: true }),
    );
    const cut = free.text.slice(5, 8);
    const stopped = await fixture.scheduler.generate(
      greedyRequest(
        "stopped",
        "main",
        { kind: "text", text: "stop here" },
        { maxTokens: 60, ignoreEos: true, stop: [cut] },
      ),
    );
    expect(stopped.finishReason).toBe("stop");
    expect(free.text.startsWith(stopped.text)).toBe(true);
    expect(stopped.text.includes(cut)).toBe(false);
  });
});
