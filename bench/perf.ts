import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  perfRunRequestSchema,
  performanceResultSchema,
  type PerformanceResult,
} from "../src-shared/contracts/performance.js";
import { createCore } from "../src-main/core/createCore.js";
import { computeSingleTest } from "../src-main/perf/computeSingleTest.js";
import { createLocalTarget } from "../src-main/perf/createLocalTarget.js";
import { createPerfService, type PerfService } from "../src-main/perf/createPerfService.js";
import type { GenerationRequest } from "../src-main/scheduler/GenerationRequest.js";
import { resolveContextSize } from "../src-main/perf/resolveContextSize.js";
import { defaultConcurrentRequests } from "../src-main/scheduler/createModelLane.js";
import { ResultStore } from "../src-main/storage/ResultStore.js";
import type { BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";
import { measureEngineSpeed } from "./measureEngineSpeed.js";

export { measureEngineSpeed };

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
  /** perf / engine, by the measure in `judged_by`. */
  pp_ratio: number;
  engine_tg_tps: number;
  perf_tg_tps: number;
  tg_ratio: number;
  engine_ttft_ms: number;
  perf_ttft_ms: number;
  /** The same requests sent to the scheduler directly, without the runner (best of the rounds). */
  scheduler_pp_tps: number;
  scheduler_tg_tps: number;
  /** Best perf / best engine, wall clock (what the product reports). */
  wall_pp_ratio: number;
  wall_tg_ratio: number;
  /** The same from CPU-share-normalized rates (robust when other processes share the CPU). */
  cpu_pp_ratio: number;
  cpu_tg_ratio: number;
}

export interface PerfVsEngineReport {
  model: string;
  threads: number;
  repeats: number;
  generated_tokens: number;
  rows: PerfVsEngineRow[];
  /** Median share of wall time this process had a CPU for during the measurements. */
  cpu_share: number;
  /**
   * `wall_clock` when the machine was quiet (cpu_share >= 0.8); else `cpu_normalized`: wall
   * rates mean little when other processes take most of the CPU, so each rate is divided by the
   * CPU share it got (both sides alike).
   */
  judged_by: "wall_clock" | "cpu_normalized";
  /**
   * False when this process got under 80% of a CPU: then even CPU time varies several-fold for
   * the same work (shared caches, SMT siblings) and the 15% bar cannot be judged either way.
   */
  conclusive: boolean;
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

interface Sample {
  pp: number;
  tg: number;
  ttft: number;
  /** CPU time / wall time of the request (1 thread: about 1 when nothing else competes). */
  share: number;
}

/** Median CPU share above which the machine counts as quiet and wall-clock rates are compared. */
const quietShare = 0.8;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

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
    // The core's perf service code, with the scheduler call wrapped to record how much of each
    // request's wall time this process actually had the CPU for (see `cpu_share`).
    let lastShare = 1;
    const generateWithShare = async (request: GenerationRequest) => {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const result = await core.scheduler.generate(request);
      const cpu = process.cpuUsage(cpuBefore);
      lastShare = (cpu.user + cpu.system) / 1000 / (performance.now() - started);
      return result;
    };
    const perf = createPerfService({
      basePath,
      engine: core.engine,
      generate: generateWithShare,
      resolveModel: (id) => core.models.resolve(id),
      store: new ResultStore({
        dir: path.join(basePath, "benchmarks", "performance", "results"),
        schema: performanceResultSchema,
      }),
      getSettings: async () => ({ community_upload_url: null }),
    });
    const context = await loaded.model.createContext({
      contextSize: resolveContextSize(loaded.settings, loaded.model.trainContextSize),
      sequences: loaded.settings.max_concurrent_requests ?? defaultConcurrentRequests,
      threads,
    });
    const sequence = context.getSequence();
    const engine = new Map<number, Sample[]>();
    const measured = new Map<number, Sample[]>();
    const direct = new Map<number, Sample[]>();
    // The scheduler without the runner around it: separates scheduler cost from runner cost.
    const directTarget = await createLocalTarget(modelId, {
      engine: core.engine,
      generate: generateWithShare,
    });
    await directTarget.warmUp(new AbortController().signal);
    const add = (into: Map<number, Sample[]>, length: number, sample: Sample) =>
      into.set(length, [...(into.get(length) ?? []), sample]);
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
        add(engine, length, {
          pp: figures.pp_tps,
          tg: figures.tg_tps,
          ttft: figures.ttft_ms,
          share: figures.cpu_share,
        });
        const result = await runPerf(perf, modelId, [length], [], generatedTokens);
        const [test] = result.single;
        add(measured, length, { pp: test.pp_tps, tg: test.tg_tps, ttft: test.ttft_ms, share: lastShare });
        const sample = await directTarget.generate(
          directTarget.buildPrompt(length),
          generatedTokens,
          new AbortController().signal,
        );
        const viaScheduler = computeSingleTest(sample, { rssBytes: 0, gpuBytes: null });
        add(direct, length, {
          pp: viaScheduler.pp_tps,
          tg: viaScheduler.tg_tps,
          ttft: viaScheduler.ttft_ms,
          share: lastShare,
        });
      }
    }
    if (options.batchSizes && options.batchSizes.length > 0) {
      last = await runPerf(perf, modelId, promptLengths, options.batchSizes, generatedTokens);
    }
    await context.dispose();
    await directTarget.close();
    const shares = [...engine.values(), ...measured.values()].flat().map((sample) => sample.share);
    const cpuShare = median(shares);
    const judgedBy = cpuShare >= quietShare ? "wall_clock" : "cpu_normalized";
    const rows = promptLengths.map((length): PerfVsEngineRow => {
      const e = engine.get(length) ?? [];
      const p = measured.get(length) ?? [];
      const d = direct.get(length) ?? [];
      const best = (samples: Sample[], pick: (sample: Sample) => number) => Math.max(...samples.map(pick));
      // Normalized: the rate had this process kept the CPU (rate / share), median over rounds.
      const normalized = (samples: Sample[], pick: (sample: Sample) => number) =>
        median(samples.map((sample) => pick(sample) / Math.max(sample.share, 0.01)));
      const row = {
        prompt_tokens: length,
        engine_pp_tps: best(e, (sample) => sample.pp),
        perf_pp_tps: best(p, (sample) => sample.pp),
        engine_tg_tps: best(e, (sample) => sample.tg),
        perf_tg_tps: best(p, (sample) => sample.tg),
        engine_ttft_ms: Math.min(...e.map((sample) => sample.ttft)),
        perf_ttft_ms: Math.min(...p.map((sample) => sample.ttft)),
        scheduler_pp_tps: best(d, (sample) => sample.pp),
        scheduler_tg_tps: best(d, (sample) => sample.tg),
        wall_pp_ratio: 0,
        wall_tg_ratio: 0,
        cpu_pp_ratio: normalized(p, (sample) => sample.pp) / normalized(e, (sample) => sample.pp),
        cpu_tg_ratio: normalized(p, (sample) => sample.tg) / normalized(e, (sample) => sample.tg),
      };
      row.wall_pp_ratio = row.perf_pp_tps / row.engine_pp_tps;
      row.wall_tg_ratio = row.perf_tg_tps / row.engine_tg_tps;
      return {
        ...row,
        pp_ratio: judgedBy === "wall_clock" ? row.wall_pp_ratio : row.cpu_pp_ratio,
        tg_ratio: judgedBy === "wall_clock" ? row.wall_tg_ratio : row.cpu_tg_ratio,
      };
    });
    const maxDeviation = Math.max(
      ...rows.flatMap((row) => [Math.abs(1 - row.pp_ratio), Math.abs(1 - row.tg_ratio)]),
    );
    last ??= await runPerf(perf, modelId, promptLengths, [], generatedTokens);
    return {
      model: path.basename(options.modelPath),
      cpu_share: cpuShare,
      judged_by: judgedBy,
      conclusive: judgedBy === "wall_clock",
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
      title: `Perf benchmark vs engine (${report.model}, ${report.threads} thread, ${report.repeats} rounds, CPU share ${report.cpu_share.toFixed(2)}, judged by ${report.judged_by}; within 15%: ${report.within_15_percent ? "yes" : "NO"}${report.conclusive ? "" : ", INCONCLUSIVE: machine busy"})`,
      rows: report.rows.map((row) => ({
        prompt: row.prompt_tokens,
        "engine pp": row.engine_pp_tps,
        "perf pp": row.perf_pp_tps,
        "pp ratio": row.pp_ratio,
        "engine tg": row.engine_tg_tps,
        "perf tg": row.perf_tg_tps,
        "tg ratio": row.tg_ratio,
        "sched pp": row.scheduler_pp_tps,
        "sched tg": row.scheduler_tg_tps,
        "engine TTFT ms": row.engine_ttft_ms,
        "perf TTFT ms": row.perf_ttft_ms,
        "wall pp": row.wall_pp_ratio,
        "wall tg": row.wall_tg_ratio,
        "cpu-norm pp": row.cpu_pp_ratio,
        "cpu-norm tg": row.cpu_tg_ratio,
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
