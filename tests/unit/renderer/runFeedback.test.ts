import { describe, expect, it } from "vitest";
import { runFailureKey } from "../../../src-renderer/benchmarks/runFailureKey.js";
import { resources } from "../../../src-renderer/i18n/createI18n.js";
import { applyEvalEvent, applyPerfEvent, newLiveRun } from "../../../src-renderer/store/LiveRun.js";
import { performanceResult } from "./fixtures.js";

const base = { run_id: "r1", at: "2026-03-01T10:00:00.000Z" };

describe("run feedback", () => {
  it("keeps each benchmark's outcome of an accuracy run, a cancelled one with what it scored", () => {
    const finished = (benchmark: string, status: "completed" | "cancelled", correct: number, total: number) =>
      ({
        ...base,
        seq: 0,
        type: "benchmark_finished",
        benchmark,
        status,
        accuracy: total ? correct / total : 0,
        correct,
        total,
        thinking_used: false,
        wall_s: 1,
        result_id: `acc-${benchmark}`,
        error: null,
      }) as const;
    const started = (benchmark: string, total: number) =>
      ({
        ...base,
        seq: 0,
        type: "benchmark_started",
        benchmark,
        total,
        batch_size: 1,
        sampling_profile: "deterministic",
        effective_sampling: { temperature: 0 } as never,
        thinking: false,
      }) as const;
    let run = newLiveRun("accuracy", "r1", "m", 0, ["humaneval", "gsm8k"]);
    run = applyEvalEvent(run, started("humaneval", 20), 1);
    run = applyEvalEvent(run, finished("humaneval", "completed", 5, 20), 2);
    run = applyEvalEvent(run, started("gsm8k", 164), 3);
    // Cancelled after 66 of 164: the card must say 66, as the saved result does.
    run = applyEvalEvent(run, finished("gsm8k", "cancelled", 33, 66), 4);
    expect(run.total).toBe(66);
    expect(
      run.outcomes.map((outcome) => [outcome.benchmark, outcome.correct, outcome.total, outcome.resultId]),
    ).toEqual([
      ["humaneval", 5, 20, "acc-humaneval"],
      ["gsm8k", 33, 66, "acc-gsm8k"],
    ]);
  });

  it("keeps a finished performance run's headline numbers: the test nearest 1024 prompt tokens", () => {
    const result = performanceResult({ result_id: "perf-1" });
    const single = [512, 1024].map((prompt, index) => ({
      ...result.single[0]!,
      prompt_tokens: prompt,
      pp_tps: 100 * (index + 1),
      tg_tps: 10 * (index + 1),
      ttft_ms: 5 * (index + 1),
    }));
    const run = applyPerfEvent(
      newLiveRun("performance", "r1", "m", 0),
      { ...base, seq: 0, type: "completed", result: { ...result, single } },
      1,
    );
    // The dashboard's default plan (512 + 1024): the middle length was 512, the history row and
    // the Models page showed 1024, so one run read as two sets of speeds.
    expect(run.headline).toEqual({ promptTokens: 1024, promptTps: 200, generationTps: 20, ttftMs: 10 });
    expect(run.uploadError).toBeNull();
  });

  it("keeps why a finished run's community upload failed, to say so on its card", () => {
    const result = performanceResult({
      result_id: "perf-2",
      upload: { state: "failed", at: base.at, error: "fetch failed: getaddrinfo ENOTFOUND example.org" },
    });
    const run = applyPerfEvent(
      newLiveRun("performance", "r1", "m", 0),
      { ...base, seq: 0, type: "completed", result },
      1,
    );
    expect(run).toMatchObject({
      status: "completed",
      uploadError: "fetch failed: getaddrinfo ENOTFOUND example.org",
    });
  });

  it("keeps a failed run's error code, and says what to do in words", () => {
    const run = applyEvalEvent(
      newLiveRun("accuracy", "r1", "m", 0),
      {
        ...base,
        seq: 3,
        type: "run_finished",
        state: "failed",
        error: { code: "upstream_error", message: "could not download x.parquet: fetch failed" },
      },
      1,
    );
    expect(run).toMatchObject({ status: "failed", errorCode: "upstream_error" });
    const key = runFailureKey(run.errorCode, run.error);
    expect(key).toBe("bench.runs.failure.download");
    expect(runFailureKey(null, "could not download …parquet: fetch failed")).toBe(
      "bench.runs.failure.download",
    );
    expect(runFailureKey("internal_error", "boom")).toBe("bench.runs.failure.other");
    // Every key the function can answer exists in English.
    const failure = (resources.en.translation as { bench: { runs: { failure: Record<string, string> } } })
      .bench.runs.failure;
    for (const code of [
      "upstream_error",
      "model_not_found",
      "model_load_failed",
      "insufficient_memory",
      "storage_error",
      "context_length_exceeded",
      null,
    ]) {
      expect(failure[runFailureKey(code, null).split(".").at(-1)!]).toBeTruthy();
    }
  });
});
