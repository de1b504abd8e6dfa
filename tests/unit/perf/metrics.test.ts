import { describe, expect, it } from "vitest";
import { perfBatchTestSchema, perfSingleTestSchema } from "../../../src-shared/contracts/performance.js";
import { computeBatchTest } from "../../../src-main/perf/computeBatchTest.js";
import { computeSingleTest } from "../../../src-main/perf/computeSingleTest.js";
import type { PerfSample } from "../../../src-main/perf/PerfTarget.js";
import { safeDivide, safeMs, safeRate } from "../../../src-main/perf/safeRate.js";

const memory = { rssBytes: 1_000_000, gpuBytes: null };

function sample(overrides: Partial<PerfSample> = {}): PerfSample {
  return {
    promptTokens: 512,
    generatedTokens: 128,
    cachedPromptTokens: 0,
    submittedAt: 1000,
    queueWaitMs: 0,
    firstTokenAt: 1100,
    endedAt: 1100 + 127 * 10,
    ...overrides,
  };
}

function allFinite(value: Record<string, unknown>): boolean {
  return Object.values(value).every((v) => v === null || typeof v !== "number" || Number.isFinite(v));
}

describe("safe rates", () => {
  it("never yields NaN or Infinity", () => {
    expect(safeRate(100, 0)).toBe(0);
    expect(safeRate(0, 0)).toBe(0);
    expect(safeRate(100, -5)).toBe(0);
    expect(safeRate(100, Number.NaN)).toBe(0);
    expect(safeRate(Number.POSITIVE_INFINITY, 10)).toBe(0);
    expect(safeRate(100, 1000)).toBe(100);
    expect(safeDivide(1, 0)).toBe(0);
    expect(safeMs(-3)).toBe(0);
  });
});

describe("computeSingleTest", () => {
  it("derives TTFT, pp, tg, TPOT and latency from client times", () => {
    const test = computeSingleTest(sample(), memory);
    expect(test.ttft_ms).toBe(100);
    expect(test.pp_tps).toBeCloseTo(5120);
    expect(test.tg_tps).toBeCloseTo(100);
    expect(test.tpot_ms).toBeCloseTo(10);
    expect(test.e2e_ms).toBe(1370);
    expect(test.prompt_tokens).toBe(512);
    expect(test.generated_tokens).toBe(128);
    expect(perfSingleTestSchema.parse(test)).toEqual(test);
  });

  it("prefers engine-reported rates (no client overhead) and keeps TPOT consistent with them", () => {
    const test = computeSingleTest(
      sample({ promptTokensPerSecond: 6000, generationTokensPerSecond: 125 }),
      memory,
    );
    expect(test.pp_tps).toBe(6000);
    expect(test.tg_tps).toBe(125);
    expect(test.tpot_ms).toBe(8);
  });

  it("excludes queue wait from TTFT and cached tokens from pp", () => {
    const test = computeSingleTest(sample({ queueWaitMs: 40, cachedPromptTokens: 12 }), memory);
    expect(test.ttft_ms).toBe(60);
    expect(test.pp_tps).toBeCloseTo(500 / 0.06);
    expect(test.queue_wait_ms).toBe(40);
  });

  it("is safe for zero durations", () => {
    const test = computeSingleTest(sample({ firstTokenAt: 1000, endedAt: 1000 }), memory);
    expect(allFinite(test)).toBe(true);
    expect(test.pp_tps).toBe(0);
    expect(test.tg_tps).toBe(0);
    expect(test.tpot_ms).toBe(0);
    expect(perfSingleTestSchema.safeParse(test).success).toBe(true);
  });

  it("handles single-token generations (no generation phase) without dividing by zero", () => {
    const test = computeSingleTest(
      sample({ generatedTokens: 1, endedAt: 1100, generationTokensPerSecond: 0 }),
      memory,
    );
    expect(test.generated_tokens).toBe(1);
    expect(test.tg_tps).toBe(0);
    expect(test.tpot_ms).toBe(0);
    expect(test.ttft_ms).toBe(100);
    expect(allFinite(test)).toBe(true);
  });

  it("ignores non-finite engine rates", () => {
    const test = computeSingleTest(
      sample({ promptTokensPerSecond: Number.POSITIVE_INFINITY, generationTokensPerSecond: Number.NaN }),
      memory,
    );
    expect(test.pp_tps).toBeCloseTo(5120);
    expect(test.tg_tps).toBeCloseTo(100);
  });

  it("handles clock skew (first token before submission)", () => {
    const test = computeSingleTest(sample({ firstTokenAt: 900, endedAt: 800 }), memory);
    expect(allFinite(test)).toBe(true);
    expect(test.ttft_ms).toBe(0);
    expect(test.e2e_ms).toBe(0);
  });
});

describe("computeBatchTest", () => {
  it("aggregates prompt and generation throughput over the batch windows", () => {
    const started = 0;
    const samples = [
      sample({ submittedAt: 0, firstTokenAt: 100, endedAt: 1100 }),
      sample({ submittedAt: 0, firstTokenAt: 200, endedAt: 1200 }),
    ];
    const test = computeBatchTest(samples, started, { rssBytes: 5, gpuBytes: 7 });
    expect(test.batch_size).toBe(2);
    expect(test.prompt_tokens).toBe(512);
    expect(test.generated_tokens).toBe(256);
    expect(test.aggregate_pp_tps).toBeCloseTo(1024 / 0.2);
    expect(test.aggregate_tg_tps).toBeCloseTo(254 / 1.1);
    expect(test.mean_ttft_ms).toBe(150);
    expect(test.wall_ms).toBe(1200);
    expect(test.peak_gpu_bytes).toBe(7);
    expect(perfBatchTestSchema.parse(test)).toEqual(test);
  });

  it("is safe when every time is the same instant and every generation is one token", () => {
    const samples = [0, 1, 2, 3].map(() =>
      sample({ submittedAt: 0, firstTokenAt: 0, endedAt: 0, generatedTokens: 1 }),
    );
    const test = computeBatchTest(samples, 0, memory);
    expect(allFinite(test)).toBe(true);
    expect(test.aggregate_pp_tps).toBe(0);
    expect(test.aggregate_tg_tps).toBe(0);
    expect(test.mean_ttft_ms).toBe(0);
  });

  it("refuses an empty batch", () => {
    expect(() => computeBatchTest([], 0, memory)).toThrow();
  });
});
