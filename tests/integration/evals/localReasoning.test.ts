import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalTarget } from "../../../src-main/evals/runner/createLocalTarget.js";
import { resolveSampling } from "../../../src-main/evals/runner/resolveSampling.js";
import { runBenchmark } from "../../../src-main/evals/runner/runBenchmark.js";
import type { GenerationRequest } from "../../../src-main/scheduler/GenerationRequest.js";
import { createSchedulerFixture, type SchedulerFixture } from "../scheduler/schedulerFixture.js";
import { createFakeBenchmark, fakeItems } from "../../unit/evals/runner/fakes.js";

/**
 * The eval runner on a local reasoning model (the test model in the `qwen3.5` chat format, which
 * opens a thought at the start of every answer): the thinking switch reaches the model, and its
 * reasoning comes back where the runner's probe and answer splitting see it.
 */
describe("accuracy runs on a local reasoning model", () => {
  let fixture: SchedulerFixture;
  const sent: GenerationRequest[] = [];

  beforeAll(async () => {
    fixture = await createSchedulerFixture({
      reasoner: {
        file: "main",
        settings: { context_size: 1024, max_concurrent_requests: 4, chat_format: "qwen3.5" },
      },
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const target = () =>
    createLocalTarget({
      modelId: "reasoner",
      generate: (request) => {
        sent.push(request);
        return fixture.scheduler.generate(request);
      },
    });

  it("returns the model's reasoning as a <think> block before the answer", async () => {
    const response = await target().generate({
      requestId: "direct-1",
      messages: [{ role: "user", content: "copy this line again and then stop" }],
      sampling: resolveSampling("deterministic").sampling,
      maxTokens: 24,
      thinking: true,
      signal: new AbortController().signal,
    });
    expect(response.text).toMatch(/^<think>.+<\/think>/s);
    expect(response.completionTokens).toBeGreaterThan(0);
  });

  it("with thinking on, sends the switch and scores answers without the reasoning", async () => {
    sent.length = 0;
    const { benchmark } = createFakeBenchmark({ maxTokens: 24 });
    const result = await runBenchmark({
      benchmark,
      items: fakeItems(4),
      target: target(),
      thinking: "on",
      thinkingMaxTokens: 32,
      batchSize: 2,
      sampling: resolveSampling("deterministic"),
    });
    expect(result.status).toBe("completed");
    expect(result.thinkingUsed).toBe(true);
    expect(sent.map((request) => request.thinking)).toEqual([true, true, true, true]);
    for (const question of result.questions) {
      // The raw response keeps the reasoning; the scorer saw the answer without it.
      expect(question.response).toMatch(/^<think>/);
      expect(question.extracted ?? "").not.toContain("<think>");
    }
  });

  it("probes with thinking off first, and a model that then does not reason stays off", async () => {
    sent.length = 0;
    const { benchmark } = createFakeBenchmark({ maxTokens: 24 });
    const result = await runBenchmark({
      benchmark,
      items: fakeItems(4),
      target: target(),
      thinking: "auto",
      batchSize: 2,
      sampling: resolveSampling("deterministic"),
    });
    expect(result.thinkingUsed).toBe(false);
    expect(sent.every((request) => request.thinking === false)).toBe(true);
    // Thinking off really reached the model: it answered instead of reasoning.
    for (const question of result.questions) {
      expect(question.response).not.toContain("<think>");
      expect(question.response ?? "").not.toBe("");
    }
  });
});
