import { describe, expect, it } from "vitest";
import { createLocalTarget } from "../../../../src-main/evals/runner/createLocalTarget.js";
import { resolveSampling } from "../../../../src-main/evals/runner/resolveSampling.js";
import { runBenchmark } from "../../../../src-main/evals/runner/runBenchmark.js";
import type { GenerationRequest } from "../../../../src-main/scheduler/GenerationRequest.js";
import { createFakeBenchmark, fakeItems } from "./fakes.js";

describe("createLocalTarget", () => {
  it("sends chat generations to the scheduler and leaves queue wait out of the question's time", async () => {
    const requests: GenerationRequest[] = [];
    let now = 0;
    const target = createLocalTarget({
      modelId: "tiny",
      async generate(request) {
        requests.push(request);
        now += 5000; // 2 s waiting for a sequence, 3 s generating
        return {
          requestId: request.requestId,
          text: "a0",
          finishReason: "stop",
          usage: { promptTokens: 3, completionTokens: 2, cachedPromptTokens: 0 },
          timings: {
            queueWaitMs: 2000,
            ttftMs: 10,
            promptTokensPerSecond: 1,
            generationTokensPerSecond: 1,
            totalMs: 3000,
          },
        };
      },
    });
    const { benchmark } = createFakeBenchmark({ maxTokens: 77 });
    const result = await runBenchmark({
      benchmark,
      items: fakeItems(1),
      target,
      thinking: "off",
      clock: () => now,
      sampling: resolveSampling("deterministic"),
    });
    expect(requests[0]).toMatchObject({
      modelId: "tiny",
      prompt: { kind: "chat", messages: [{ role: "user", content: "q0" }] },
      maxTokens: 77,
      sampling: { temperature: 0, repeatPenalty: 1 },
    });
    expect(requests[0].signal).toBeInstanceOf(AbortSignal);
    expect(result.questions[0]).toMatchObject({ correct: true, time_s: 3 });
    expect(target.description).toEqual({ kind: "local", model_id: "tiny" });
  });
});
