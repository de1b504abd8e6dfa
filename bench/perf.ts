import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { perfRunRequestSchema, type PerformanceResult } from "../src-shared/contracts/bench.js";
import { createCore } from "../src-main/core/createCore.js";
import type { LoadedModel } from "../src-main/engine/LoadedModel.js";
import type { PerfService } from "../src-main/perf/createPerfService.js";
import { cutTextToTokens } from "../src-main/perf/cutTextToTokens.js";
import { fillerText } from "../src-main/perf/fillerText.js";
import { resolveContextSize } from "../src-main/perf/resolveContextSize.js";
import { defaultConcurrentRequests } from "../src-main/scheduler/createModelLane.js";
import type { BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";

export interface PerfVsEngineOptions {
  /** The GGUF to measure. */
  modelPath: string;
  /** Prompt lengths compared. Defaults to `[128, 512]`. */
  promptLengths?: number[];
  /** Generated tokens per request. Defaults to `128`. */
  generatedTokens?: number;
  /**
   * Interleaved engine/perf rounds. The best of each side is compared: other load on a shared
   * machine only ever slows a measurement down, so the fastest is the least disturbed.
   * Defaults to `3`.
   */
  repeats?: number;
  /** CPU threads for llama.cpp. Defaults to `1` (2-core CI machines). */
  threads?: number;
  /** Batch sizes the perf run also measures (reported, not compared). Defaults to `[]`. */
  batchSizes?: number[];
}

export interface PerfVsEngineRow {
  prompt_tokens: number;
  engine_pp_tps: number;
  perf_pp_tps: number;
  /** perf / engine. */
  pp_ratio: number;
  engine_tg_tps: number;
  perf_tg_tps: number;
  tg_ratio: number;
  engine_ttft_ms: number;
  perf_ttft_ms: number;
  /** The same ratios from medians (reported; noisier on a shared machine). */
  median_pp_ratio: number;
  median_tg_ratio: number;
}

export interface PerfVsEngineReport {
  model: string;
  threads: number;
  repeats: number;
  generated_tokens: number;
  rows: PerfVsEngineRow[];
  /** Largest |1 - ratio| over every row's pp and tg. */
  max_deviation: number;
  within_15_percent: boolean;
  /** The last perf result's batch tests, peak memory and exact counts (for the report). */
  last_result: Pick<PerformanceResult, "single" | "batch" | "peak_rss_bytes" | "skipped">;
}

async function runPerf(
  perf: PerfService,
  modelId: string,
  promptLengths: number[],
  batchSizes: number[],
  generatedTokens: number,
): Promise<PerformanceResult> {
  const run = await perf.runner.start(
    perfRunRequestSchema.parse({
      model_id: modelId,
      prompt_lengths: promptLengths,
      batch_sizes: batchSizes,
      generated_tokens: generatedTokens,
    }),
  );
  await perf.runner.idle();
  const end = run.history().at(-1);
  if (end?.type !== "completed") throw new Error(`perf run ended with ${JSON.stringify(end)}`);
  return end.result;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Engine-level figures: node-llama-cpp driven directly on the already loaded model, on a context
 * of the same shape as the scheduler's (context size, sequences, threads), with a fresh sequence
 * and a unique prompt of exactly `promptTokens` tokens. pp counts until the first token (as the
 * scheduler's TTFT does); tg is the tokens after it. End-of-generation tokens are kept going.
 */
export async function measureEngineSpeed(
  loaded: LoadedModel,
  sequence: LlamaContextSequence,
  promptTokens: number,
  generatedTokens: number,
  seed: number,
): Promise<{ pp_tps: number; tg_tps: number; ttft_ms: number; generated: number }> {
  const { model } = loaded;
  const tokenizer = {
    tokenize: (text: string) => model.tokenize(text, false, "trimLeadingSpace"),
    detokenize: (tokens: readonly number[]) => model.detokenize(tokens as Token[]),
  };
  const bos = model.tokens.bos;
  const body = promptTokens - (bos === null ? 0 : 1);
  const text = cutTextToTokens(tokenizer, `Engine${seed} ${fillerText(seed, body * 2 + 32)}`, body);
  const tokens = [...(bos === null ? [] : [bos]), ...tokenizer.tokenize(text)] as Token[];
  await sequence.clearHistory();
  const started = performance.now();
  const iterator = sequence.evaluate(tokens, { temperature: 0, yieldEogToken: true });
  const first = await iterator.next();
  const firstAt = performance.now();
  let generated = first.done ? 0 : 1;
  while (generated < generatedTokens) {
    const next = await iterator.next();
    if (next.done) break;
    generated += 1;
  }
  const endedAt = performance.now();
  await iterator.return();
  return {
    pp_tps: tokens.length / ((firstAt - started) / 1000),
    tg_tps: (generated - 1) / ((endedAt - firstAt) / 1000),
    ttft_ms: firstAt - started,
    generated,
  };
}

/**
 * The perf benchmark against the engine it measures, in one process: interleaved rounds of
 * (engine figures, perf run) on the same loaded model, best figures compared. The perf runner goes
 * through the scheduler like any API request, so the ratio shows what the whole request path
 * and the runner cost on top of llama.cpp; the bar is within 15%.
 */
export async function measurePerfVsEngine(options: PerfVsEngineOptions): Promise<PerfVsEngineReport> {
  const promptLengths = options.promptLengths ?? [128, 512];
  const generatedTokens = options.generatedTokens ?? 128;
  const repeats = options.repeats ?? 3;
  const threads = options.threads ?? 1;
  const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-bench-perf-"));
  fs.mkdirSync(path.join(basePath, "models"));
  const modelId = path.basename(options.modelPath).replace(/\.gguf$/, "");
  fs.symlinkSync(path.resolve(options.modelPath), path.join(basePath, "models", `${modelId}.gguf`));
  const core = await createCore({ basePath, threads, gpu: false, logLevel: "warn" });
  const loaded = await core.engine.acquire(modelId);
  try {
    const perf = core.perf;
    const context = await loaded.model.createContext({
      contextSize: resolveContextSize(loaded.settings, loaded.model.trainContextSize),
      sequences: loaded.settings.max_concurrent_requests ?? defaultConcurrentRequests,
      threads,
    });
    const sequence = context.getSequence();
    const engine = new Map<number, { pp: number[]; tg: number[]; ttft: number[] }>();
    const measured = new Map<number, { pp: number[]; tg: number[]; ttft: number[] }>();
    const add = (into: typeof engine, length: number, pp: number, tg: number, ttft: number) => {
      const entry = into.get(length) ?? { pp: [], tg: [], ttft: [] };
      entry.pp.push(pp);
      entry.tg.push(tg);
      entry.ttft.push(ttft);
      into.set(length, entry);
    };
    // Warm both paths once (page in the weights, build the scheduler's lane).
    await measureEngineSpeed(loaded, sequence, promptLengths[0], 8, 999);
    let last: PerformanceResult | undefined;
    // Tightly interleaved (engine, then perf, per length) so both see the same machine load.
    for (let round = 0; round < repeats; round += 1) {
      for (const length of promptLengths) {
        const figures = await measureEngineSpeed(
          loaded,
          sequence,
          length,
          generatedTokens,
          round * 100_000 + length,
        );
        add(engine, length, figures.pp_tps, figures.tg_tps, figures.ttft_ms);
        const result = await runPerf(perf, modelId, [length], [], generatedTokens);
        for (const test of result.single)
          add(measured, test.prompt_tokens, test.pp_tps, test.tg_tps, test.ttft_ms);
      }
    }
    if (options.batchSizes && options.batchSizes.length > 0) {
      last = await runPerf(perf, modelId, promptLengths, options.batchSizes, generatedTokens);
    }
    await context.dispose();
    const rows = promptLengths.map((length): PerfVsEngineRow => {
      const e = engine.get(length);
      const p = measured.get(length);
      if (!e || !p) throw new Error(`no figures for ${length} prompt tokens`);
      const row = {
        prompt_tokens: length,
        engine_pp_tps: Math.max(...e.pp),
        perf_pp_tps: Math.max(...p.pp),
        engine_tg_tps: Math.max(...e.tg),
        perf_tg_tps: Math.max(...p.tg),
        engine_ttft_ms: Math.min(...e.ttft),
        perf_ttft_ms: Math.min(...p.ttft),
        median_pp_ratio: median(p.pp) / median(e.pp),
        median_tg_ratio: median(p.tg) / median(e.tg),
      };
      return {
        ...row,
        pp_ratio: row.perf_pp_tps / row.engine_pp_tps,
        tg_ratio: row.perf_tg_tps / row.engine_tg_tps,
      };
    });
    const maxDeviation = Math.max(
      ...rows.flatMap((row) => [Math.abs(1 - row.pp_ratio), Math.abs(1 - row.tg_ratio)]),
    );
    last ??= await runPerf(perf, modelId, promptLengths, [], generatedTokens);
    return {
      model: path.basename(options.modelPath),
      threads,
      repeats,
      generated_tokens: generatedTokens,
      rows,
      max_deviation: maxDeviation,
      within_15_percent: maxDeviation <= 0.15,
      last_result: {
        single: last.single,
        batch: last.batch,
        peak_rss_bytes: last.peak_rss_bytes,
        skipped: last.skipped,
      },
    };
  } finally {
    core.engine.release(loaded);
    await core.close();
    fs.rmSync(basePath, { recursive: true, force: true });
  }
}

/** Rows for `printTable` (bench/BenchSection.ts). */
export function perfVsEngineTables(report: PerfVsEngineReport) {
  return [
    {
      title: `Perf benchmark vs engine (${report.model}, ${report.threads} thread, best of ${report.repeats}; within 15%: ${report.within_15_percent ? "yes" : "NO"})`,
      rows: report.rows.map((row) => ({
        prompt: row.prompt_tokens,
        "engine pp": row.engine_pp_tps,
        "perf pp": row.perf_pp_tps,
        "pp ratio": row.pp_ratio,
        "engine tg": row.engine_tg_tps,
        "perf tg": row.perf_tg_tps,
        "tg ratio": row.tg_ratio,
        "engine TTFT ms": row.engine_ttft_ms,
        "perf TTFT ms": row.perf_ttft_ms,
        "median pp ratio": row.median_pp_ratio,
        "median tg ratio": row.median_tg_ratio,
      })),
    },
    {
      title: "Perf benchmark, concurrent requests (last round)",
      rows: report.last_result.batch.map((test) => ({
        batch: test.batch_size,
        "prompt each": test.prompt_tokens,
        "agg pp tok/s": test.aggregate_pp_tps,
        "agg tg tok/s": test.aggregate_tg_tps,
        "mean TTFT ms": test.mean_ttft_ms,
      })),
    },
  ];
}

/** `npm run bench` section: the test model (and the realistic one when generated). */
export const perfSection: BenchSection = {
  name: "perf",
  run: async () => {
    const models = await benchModels();
    const reports = [];
    for (const modelPath of [models.main, models.realistic].filter((file): file is string => Boolean(file))) {
      reports.push(
        await measurePerfVsEngine({ modelPath, promptLengths: [128, 512], batchSizes: [2, 4], repeats: 3 }),
      );
    }
    return { json: reports, table: reports.flatMap(perfVsEngineTables) };
  },
};
