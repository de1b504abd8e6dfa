import { describe, expect, it, vi } from "vitest";
import {
  perfEventSchema,
  perfRunRequestSchema,
  performanceResultSchema,
  type PerfEvent,
  type PerfRunRequestInput,
} from "../../../src-shared/contracts/performance.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { PerfRunner, type PerfRunnerOptions } from "../../../src-main/perf/PerfRunner.js";
import type { PerfRun } from "../../../src-main/perf/PerfRun.js";
import type { PerfTarget } from "../../../src-main/perf/PerfTarget.js";
import { fakeSystem, fakeTarget, MemoryResultStore } from "./fakes.js";

function setup(target: PerfTarget | (() => Promise<PerfTarget>), extra: Partial<PerfRunnerOptions> = {}) {
  const store = new MemoryResultStore();
  const settle = vi.fn(async (result) => result);
  const runner = new PerfRunner({
    createTarget: typeof target === "function" ? target : async () => target,
    store,
    uploader: { settle },
    appVersion: "9.9.9",
    system: async () => fakeSystem,
    sampleIntervalMs: 5,
    ...extra,
  });
  return { runner, store, settle };
}

const request = (input: Partial<PerfRunRequestInput> = {}) =>
  perfRunRequestSchema.parse({
    model_id: "fake-model",
    prompt_lengths: [128, 512],
    batch_sizes: [2, 4],
    ...input,
  });

/** Resolves when the run's `count`th test starts. */
function untilTestStarts(run: PerfRun, count = 1): Promise<void> {
  let started = 0;
  return new Promise<void>((resolve) => {
    const stop = run.subscribe((event) => {
      if (event.type === "test_started" && ++started === count) {
        stop();
        resolve();
      }
    });
  });
}

async function runToEnd(runner: PerfRunner, input = request()): Promise<PerfEvent[]> {
  const run = await runner.start(input);
  await runner.idle();
  return run.history();
}

describe("PerfRunner", () => {
  it("warms up, runs single then batch tests, saves the result and reports every step", async () => {
    const target = fakeTarget();
    const { runner, store, settle } = setup(target);
    const events = await runToEnd(runner);
    for (const event of events) perfEventSchema.parse(event);
    expect(events.map((e) => (e.type === "phase" ? `phase:${e.phase}` : e.type))).toEqual([
      "started",
      "phase:loading",
      "phase:warmup",
      "phase:single",
      "test_started",
      "single_completed",
      "test_started",
      "single_completed",
      "phase:batch",
      "test_started",
      "batch_completed",
      "test_started",
      "batch_completed",
      "phase:saving",
      "completed",
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const completed = events.at(-1);
    if (completed?.type !== "completed") throw new Error("not completed");
    const result = performanceResultSchema.parse(completed.result);
    expect(store.results.get(result.result_id)).toEqual(result);
    expect(result.single.map((t) => t.prompt_tokens)).toEqual([128, 512]);
    expect(result.batch.map((t) => t.batch_size)).toEqual([2, 4]);
    expect(result.upload).toEqual({ state: "not_requested" });
    expect(result.environment).toMatchObject({ app_version: "9.9.9", cpu_model: "Apple M2 Pro", threads: 1 });
    expect(settle).toHaveBeenCalledOnce();
    expect(target.closed).toBe(true);
    // 2 single prompts + 2 + 4 batch prompts, each built separately (unique prefixes).
    expect(new Set(target.prompts.map((p) => p.text)).size).toBe(8);
    expect(runner.active()).toBeUndefined();
  });

  it("skips tests that do not fit the context or the concurrency, with reasons", async () => {
    const target = fakeTarget({ contextSize: 600, maxConcurrent: 2 });
    const { runner } = setup(target);
    const events = await runToEnd(runner, request({ prompt_lengths: [128, 512, 1024], batch_sizes: [2, 4] }));
    const completed = events.at(-1);
    if (completed?.type !== "completed") throw new Error("not completed");
    const { result } = completed;
    expect(result.single.map((t) => t.prompt_tokens)).toEqual([128]);
    expect(result.skipped).toEqual([
      expect.objectContaining({
        kind: "single",
        prompt_tokens: 512,
        reason: expect.stringContaining("context holds 600"),
      }),
      expect.objectContaining({ kind: "single", prompt_tokens: 1024 }),
      expect.objectContaining({ kind: "batch", batch_size: 2 }),
      expect.objectContaining({ kind: "batch", batch_size: 4 }),
    ]);
    expect(events.filter((e) => e.type === "test_skipped")).toHaveLength(4);
  });

  it("runs 8 concurrent requests without Node's listener-leak warning (each listens on the batch's signal)", async () => {
    const base = fakeTarget();
    // Like the scheduler: the queue and the sequence each listen for an abort.
    const target: PerfTarget = {
      ...base,
      generate: (prompt, maxTokens, signal) => {
        const listener = () => {};
        signal.addEventListener("abort", listener);
        return base
          .generate(prompt, maxTokens, signal)
          .finally(() => signal.removeEventListener("abort", listener));
      },
    };
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const { runner } = setup(target);
      const events = await runToEnd(runner, request({ prompt_lengths: [128], batch_sizes: [8] }));
      expect(events.at(-1)?.type).toBe("completed");
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("turns an engine context overflow into a skipped test, not a failed run", async () => {
    const target = fakeTarget({
      onGenerate: (prompt) => {
        if (prompt.expectedTokens === 512)
          throw new PerchError("context_length_exceeded", "too long for the context");
      },
    });
    const { runner } = setup(target);
    const events = await runToEnd(runner, request({ batch_sizes: [] }));
    const completed = events.at(-1);
    if (completed?.type !== "completed") throw new Error("not completed");
    expect(completed.result.single).toHaveLength(1);
    expect(completed.result.skipped[0]).toMatchObject({
      prompt_tokens: 512,
      reason: "too long for the context",
    });
  });

  it("answers 409 conflict to a second start while a run is active", async () => {
    const { runner } = setup(fakeTarget({ delayMs: 30 }));
    const first = await runner.start(request());
    const second = runner.start(request());
    await expect(second).rejects.toMatchObject({ code: "conflict", status: 409 });
    expect(runner.active()?.runId).toBe(first.runId);
    await runner.idle();
    await expect(runner.start(request({ batch_sizes: [] }))).resolves.toBeDefined();
    await runner.idle();
  });

  it("a test the cancel cut short (the engine answers what it had: 27 of 256 tokens) is not reported completed", async () => {
    const base = fakeTarget();
    const target: PerfTarget = {
      ...base,
      // As the local engine does: a cancelled generation resolves with the tokens it had.
      generate: (prompt, maxTokens, signal) =>
        new Promise((resolve) => {
          const submittedAt = performance.now();
          signal.addEventListener("abort", () =>
            resolve({
              promptTokens: prompt.expectedTokens,
              generatedTokens: 27,
              cachedPromptTokens: 0,
              submittedAt,
              queueWaitMs: 0,
              firstTokenAt: submittedAt,
              endedAt: performance.now(),
            }),
          );
        }),
    };
    const { runner } = setup(target);
    const run = await runner.start(request({ generated_tokens: 256 }));
    await untilTestStarts(run);
    runner.cancel(run.runId);
    await runner.idle();
    const types = run.history().map((event) => event.type);
    expect(types).not.toContain("single_completed");
    expect(types.at(-1)).toBe("cancelled");
  });

  it("cancelled after tests finished: keeps them as a cancelled result, never uploaded", async () => {
    const target = fakeTarget({ delayMs: 50 });
    const { runner, store, settle } = setup(target);
    const run = await runner.start(request({ upload_to_community: true }));
    await untilTestStarts(run, 2);
    runner.cancel(run.runId);
    await runner.idle();
    const last = run.history().at(-1);
    // Was a bare cancelled event: the first test's figures were thrown away.
    expect(last).toMatchObject({ type: "cancelled", result: { status: "cancelled" } });
    expect(run.state).toBe("cancelled");
    const saved = [...store.results.values()];
    expect(saved).toHaveLength(1);
    expect(performanceResultSchema.parse(saved[0])).toMatchObject({
      status: "cancelled",
      upload_requested: false,
      single: [{ prompt_tokens: 128 }],
      batch: [],
    });
    expect(settle).not.toHaveBeenCalled();
    expect(target.closed).toBe(true);
  });

  it("cancels before any test finished: ends with a cancelled event, saves nothing and releases the target", async () => {
    const target = fakeTarget({ delayMs: 50 });
    const { runner, store } = setup(target);
    const run = await runner.start(request());
    await untilTestStarts(run);
    runner.cancel(run.runId);
    await runner.idle();
    expect(run.history().at(-1)?.type).toBe("cancelled");
    expect(run.state).toBe("cancelled");
    expect(store.results.size).toBe(0);
    expect(target.closed).toBe(true);
    expect(() => runner.cancel("perf-run-unknown")).toThrow(
      expect.objectContaining({ code: "run_not_found" }),
    );
  });

  it("replays the whole run to a late subscriber, then streams live events", async () => {
    const { runner } = setup(fakeTarget({ delayMs: 10 }));
    const run = await runner.start(request());
    const early: PerfEvent[] = [];
    run.subscribe((event) => early.push(event));
    await new Promise((resolve) => setTimeout(resolve, 25));
    const late: PerfEvent[] = [];
    run.subscribe((event) => late.push(event));
    expect(late.length).toBeGreaterThan(2);
    await runner.idle();
    const afterwards: PerfEvent[] = [];
    run.subscribe((event) => afterwards.push(event));
    expect(late).toEqual(early);
    expect(afterwards).toEqual(early);
    expect(runner.get(run.runId)).toBe(run);
  });

  it("reports a failure with its error code and keeps accepting runs", async () => {
    const { runner } = setup(async () => {
      throw new PerchError("model_load_failed", "bad file");
    });
    const events = await runToEnd(runner);
    expect(events.at(-1)).toMatchObject({
      type: "failed",
      error: { code: "model_load_failed", message: "bad file" },
    });
    expect(runner.active()).toBeUndefined();
  });

  it("rejects a start whose validation fails without blocking the next one", async () => {
    let valid = false;
    const { runner } = setup(fakeTarget(), {
      validate: async () => {
        if (!valid) throw new PerchError("model_not_found", "no such model");
      },
    });
    await expect(runner.start(request())).rejects.toMatchObject({ code: "model_not_found" });
    valid = true;
    await runner.start(request({ batch_sizes: [] }));
    await runner.idle();
  });
});

describe("perfRunRequestSchema", () => {
  it("needs exactly one target and defaults the upload to off", () => {
    expect(perfRunRequestSchema.safeParse({}).success).toBe(false);
    expect(
      perfRunRequestSchema.safeParse({
        model_id: "a",
        external: { base_url: "http://127.0.0.1:1/v1", model: "m" },
      }).success,
    ).toBe(false);
    const parsed = perfRunRequestSchema.parse({ model_id: "a", prompt_lengths: [512, 128, 512] });
    expect(parsed.upload_to_community).toBe(false);
    expect(parsed.prompt_lengths).toEqual([128, 512]);
    expect(parsed.generated_tokens).toBe(128);
    expect(perfRunRequestSchema.safeParse({ model_id: "a", prompt_lengths: [100] }).success).toBe(false);
    expect(perfRunRequestSchema.safeParse({ model_id: "a", batch_sizes: [3] }).success).toBe(false);
  });
});
