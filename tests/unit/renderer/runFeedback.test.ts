import { describe, expect, it } from "vitest";
import { runFailureKey } from "../../../src-renderer/benchmarks/runFailureKey.js";
import { resources } from "../../../src-renderer/i18n/createI18n.js";
import { applyEvalEvent, applyPerfEvent, newLiveRun } from "../../../src-renderer/store/LiveRun.js";
import { performanceResult } from "./fixtures.js";

const base = { run_id: "r1", at: "2026-03-01T10:00:00.000Z" };

describe("run feedback", () => {
  it("keeps a finished performance run's headline numbers (middle prompt length)", () => {
    const result = performanceResult({ result_id: "perf-1" });
    const single = [128, 512, 2048].map((prompt, index) => ({
      ...result.single[0]!,
      prompt_tokens: prompt,
      pp_tps: 100 * (index + 1),
      tg_tps: 10 * (index + 1),
      ttft_ms: 5 * (index + 1),
    }));
    const run = applyPerfEvent(
      newLiveRun("performance", "r1", "m", 0),
      {
        ...base,
        seq: 0,
        type: "completed",
        result: { ...result, single: [single[2]!, single[0]!, single[1]!] },
      },
      1,
    );
    expect(run.headline).toEqual({ promptTokens: 512, promptTps: 200, generationTps: 20, ttftMs: 10 });
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
