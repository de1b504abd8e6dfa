import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import type { QuestionResult } from "../../../../src-shared/contracts/accuracy.js";
import type { EvalTarget } from "../../../../src-main/evals/runner/EvalTarget.js";
import type { Benchmark } from "../../../../src-main/evals/benchmarks/Benchmark.js";
import { runBenchmark } from "../../../../src-main/evals/runner/runBenchmark.js";
import { fakeItems, type FakeItem } from "./fakes.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits like a real task, holding an abort listener meanwhile (as fetch and the sandbox pool do). */
async function holdListener(signal: AbortSignal, ms: number, seen: number[]): Promise<void> {
  const onAbort = () => undefined;
  signal.addEventListener("abort", onAbort);
  seen.push(getEventListeners(signal, "abort").length);
  await pause(ms);
  signal.removeEventListener("abort", onAbort);
}

describe("abort listeners of a run", () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  afterEach(() => {
    process.off("warning", onWarning);
    warnings.length = 0;
  });

  it("stay bounded with many items in flight: no MaxListenersExceededWarning", async () => {
    process.on("warning", onWarning);
    const seen: number[] = [];
    const target: EvalTarget = {
      modelId: "fake",
      description: { kind: "local", model_id: "fake" },
      async generate(request) {
        await holdListener(request.signal, 2, seen);
        return { text: "right", finishReason: "stop" };
      },
      effectiveSampling: () => ({ temperature: 0, top_p: 1, top_k: 0, min_p: 0, max_tokens: 8 }),
    };
    const benchmark: Benchmark<FakeItem> = {
      name: "gsm8k",
      variants: ["fake"],
      defaultVariant: "fake",
      maxTokens: 8,
      needsSandbox: false,
      loadItems: async () => fakeItems(120),
      buildPrompt: (item) => [{ role: "user", content: item.id }],
      // Scoring is slower than generating: the lane fills up (16 tasks for a batch of 8).
      async score(item, response, context): Promise<QuestionResult> {
        await holdListener(context.signal!, 10, seen);
        return {
          id: item.id,
          category: "c",
          correct: true,
          expected: "right",
          extracted: response.answer,
          response: response.raw,
          pass_mode: null,
          failure_type: null,
          error: null,
          time_s: 0,
        };
      },
    };
    const controller = new AbortController();
    const run = await runBenchmark({
      benchmark,
      items: fakeItems(120),
      target,
      batchSize: 8,
      thinking: "off",
      signal: controller.signal,
    });
    await pause(10); // warnings are emitted on a later tick
    expect(run).toMatchObject({ status: "completed", scored: 120, correct: 120 });
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    // Each task's listener sits on a signal of its own; the caller's signal holds none of them.
    expect(Math.max(...seen)).toBeLessThanOrEqual(2);
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
  });
});
