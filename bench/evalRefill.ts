import { pathToFileURL } from "node:url";
import type { QuestionResult } from "../src-shared/contracts/accuracy.js";
import type { EvalTarget } from "../src-main/evals/runner/EvalTarget.js";
import type { Benchmark, BenchmarkItem } from "../src-main/evals/benchmarks/Benchmark.js";
import { toEffective } from "../src-main/evals/runner/resolveSampling.js";
import { runBenchmark } from "../src-main/evals/runner/runBenchmark.js";
import { printTable, type BenchSection } from "./BenchSection.js";
import { VirtualClock } from "./VirtualClock.js";
import { seededRandom } from "../src-main/base/seededRandom.js";

export interface EvalRefillBenchOptions {
  /** Questions per simulated run. Defaults to `300`. */
  items?: number;
  /** Seed of the latency draw shown in the table. Defaults to `42`. */
  seed?: number;
  /** Further seeds for the spread of refill/ideal ratios. Defaults to `50`. */
  spreadSeeds?: number;
  /** Defaults to `[4, 8]`. */
  batchSizes?: number[];
  /** Simulated scoring time per answer, seconds (it overlaps generation). Defaults to `0.5`. */
  scoringSeconds?: number;
}

/** One batch size: simulated seconds and slot utilization of refill and fixed chunks. */
export interface EvalRefillRow {
  batch_size: number;
  sum_s: number;
  longest_s: number;
  /** `max(sum / batch, longest)`: no schedule can be faster. */
  ideal_s: number;
  /**
   * Greedy list scheduling in dataset order, computed directly: what a perfect refill runner gets.
   * Its gap to `ideal_s` is the tail of the last in-flight requests, which no runner can avoid
   * without knowing generation lengths in advance.
   */
  list_s: number;
  refill_s: number;
  /** `refill_s / list_s - 1`: the runner's own scheduling loss. */
  refill_overhead: number;
  refill_utilization: number;
  /** `refill_s / ideal_s - 1`; the target is at most 0.05. */
  refill_over_ideal: number;
  chunks_s: number;
  chunks_utilization: number;
  chunks_over_ideal: number;
  /** `1 - refill_s / chunks_s`. */
  refill_saves: number;
}

export interface EvalRefillBenchResult {
  items: number;
  seed: number;
  /** How generation times were drawn. */
  distribution: string;
  rows: EvalRefillRow[];
  /** Refill's `makespan / ideal - 1` over `spreadSeeds` other draws, per batch size (the tail varies by draw). */
  spread: Array<{
    batch_size: number;
    seeds: number;
    median: number;
    p90: number;
    worst: number;
    within_5pct: number;
  }>;
  /** Real milliseconds the whole simulation took. */
  wall_ms: number;
}

// A long tail: lognormal around a 20 s median (p99 about 4x the median), cut at the max-token
// time (300 s) as real runs are. Heavier tails save more with refill but leave a larger unavoidable
// end gap (see `list_s`); this one is heavier than the reference run (it saves ~50% at batch 8
// where the reference saved ~30% on a real engine).
const median = 20;
const sigma = 0.6;
const cap = 300;

/** Seeded generation times in seconds (mulberry32 + Box-Muller), so every run draws the same. */
export function drawLatencies(count: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.min(cap, Math.round(median * Math.exp(sigma * normal) * 1000) / 1000);
  });
}

/**
 * Refill-on-completion (the real `runBenchmark`) against fixed chunks that wait for their slowest
 * request, on a simulated engine whose generation times have a long tail; both compared with the
 * ideal makespan.
 */
export async function runEvalRefillBench(
  options: EvalRefillBenchOptions = {},
): Promise<EvalRefillBenchResult> {
  const started = performance.now();
  const items = options.items ?? 300;
  const seed = options.seed ?? 42;
  const batchSizes = options.batchSizes ?? [4, 8];
  const scoring = options.scoringSeconds ?? 0.5;
  const rows: EvalRefillRow[] = [];
  const latencies = drawLatencies(items, seed);
  for (const batch of batchSizes) {
    const ideal = idealMakespan(latencies, batch);
    const list = listScheduleMakespan(latencies, batch);
    const sum = latencies.reduce((total, value) => total + value, 0);
    const refill = await simulateRefill(latencies, batch, scoring);
    const chunks = await simulateChunks(latencies, batch, scoring);
    rows.push({
      batch_size: batch,
      sum_s: sum,
      longest_s: Math.max(...latencies),
      ideal_s: ideal,
      list_s: list,
      refill_s: refill,
      refill_overhead: refill / list - 1,
      refill_utilization: sum / (batch * refill),
      refill_over_ideal: refill / ideal - 1,
      chunks_s: chunks,
      chunks_utilization: sum / (batch * chunks),
      chunks_over_ideal: chunks / ideal - 1,
      refill_saves: 1 - refill / chunks,
    });
  }
  const spread = [];
  const spreadSeeds = options.spreadSeeds ?? 50;
  for (const batch of batchSizes) {
    const ratios: number[] = [];
    for (let other = 1; other <= spreadSeeds; other += 1) {
      const draw = drawLatencies(items, seed + other * 7919);
      ratios.push((await simulateRefill(draw, batch, scoring)) / idealMakespan(draw, batch) - 1);
    }
    ratios.sort((a, b) => a - b);
    spread.push({
      batch_size: batch,
      seeds: ratios.length,
      median: ratios[Math.floor(ratios.length / 2)] ?? 0,
      p90: ratios[Math.floor(ratios.length * 0.9)] ?? 0,
      worst: ratios.at(-1) ?? 0,
      within_5pct: ratios.filter((ratio) => ratio <= 0.05).length / Math.max(1, ratios.length),
    });
  }
  return {
    items,
    seed,
    distribution: `lognormal(median ${median} s, sigma ${sigma}) capped at ${cap} s; scoring ${scoring} s per answer`,
    rows,
    spread,
    wall_ms: performance.now() - started,
  };
}

function idealMakespan(latencies: readonly number[], batch: number): number {
  return Math.max(latencies.reduce((sum, value) => sum + value, 0) / batch, Math.max(...latencies));
}

/** Each request goes to the slot that frees first, in dataset order. */
function listScheduleMakespan(latencies: readonly number[], batch: number): number {
  const slots = new Array<number>(batch).fill(0);
  for (const latency of latencies) {
    const first = slots.indexOf(Math.min(...slots));
    slots[first] += latency;
  }
  return Math.max(...slots);
}

interface SimItem extends BenchmarkItem {
  index: number;
}

/** Runs the real runner on the simulated engine; returns the simulated makespan in seconds. */
async function simulateRefill(latencies: readonly number[], batch: number, scoring: number): Promise<number> {
  const clock = new VirtualClock();
  const target: EvalTarget = {
    modelId: "simulated",
    description: { kind: "local", model_id: "simulated" },
    async generate(request) {
      await clock.sleep(latencies[Number(request.messages[0].content)] * 1000);
      return { text: "ok", finishReason: "stop" };
    },
    effectiveSampling: toEffective,
  };
  const items: SimItem[] = latencies.map((_, index) => ({
    index,
    id: String(index),
    expected: "ok",
    category: "sim",
  }));
  // A text benchmark's name: the runner only logs it.
  const benchmark: Benchmark<SimItem> = {
    name: "gsm8k",
    variants: ["simulated"],
    defaultVariant: "simulated",
    maxTokens: 1,
    needsSandbox: false,
    loadItems: async () => items,
    buildPrompt: (item) => [{ role: "user", content: String(item.index) }],
    async score(item, response): Promise<QuestionResult> {
      await clock.sleep(scoring * 1000);
      return {
        id: String(item.index),
        correct: response.answer === "ok",
        expected: "ok",
        extracted: response.answer,
        response: response.raw,
        pass_mode: "as_is",
        failure_type: null,
        error: null,
        time_s: 0,
        category: "sim",
      };
    },
  };
  const run = await clock.run(
    runBenchmark({ benchmark, items, target, batchSize: batch, thinking: "off", clock: clock.now }),
  );
  if (run.correct !== latencies.length) throw new Error("simulated run lost answers");
  // The last generation's end, not the scoring tail: chunks below are measured the same way.
  return run.timings.total_s - run.timings.scoring_s;
}

/** The old way: start `batch` requests, wait for all of them, start the next chunk. */
async function simulateChunks(latencies: readonly number[], batch: number, scoring: number): Promise<number> {
  const clock = new VirtualClock();
  const work = (async () => {
    for (let start = 0; start < latencies.length; start += batch) {
      const chunk = latencies.slice(start, start + batch);
      await Promise.all(chunk.map((latency) => clock.sleep(latency * 1000)));
      // Scoring of the chunk overlaps nothing that matters here; it is not counted.
      void scoring;
    }
    return clock.now() / 1000;
  })();
  return clock.run(work);
}

/** The printed tables of a result. */
export function evalRefillTables(
  result: EvalRefillBenchResult,
): { title: string; rows: Record<string, string | number>[] }[] {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  return [
    {
      title: `Eval refill vs fixed chunks: ${result.items} simulated questions, seed ${result.seed} (${result.distribution})`,
      rows: result.rows.map((row) => ({
        batch: row.batch_size,
        "ideal s": row.ideal_s,
        "list s": row.list_s,
        "refill s": row.refill_s,
        "runner overhead": percent(row.refill_overhead),
        "refill util": percent(row.refill_utilization),
        "refill vs ideal": `+${percent(row.refill_over_ideal)}`,
        "chunks s": row.chunks_s,
        "chunks util": percent(row.chunks_utilization),
        "chunks vs ideal": `+${percent(row.chunks_over_ideal)}`,
        "refill saves": percent(row.refill_saves),
      })),
    },
    {
      title: "Refill makespan over ideal across other seeds",
      rows: result.spread.map((row) => ({
        batch: row.batch_size,
        seeds: row.seeds,
        median: `+${percent(row.median)}`,
        p90: `+${percent(row.p90)}`,
        worst: `+${percent(row.worst)}`,
        "within 5%": percent(row.within_5pct),
      })),
    },
  ];
}

/** `npm run bench -- eval-refill`. */
export const evalRefillSection: BenchSection = {
  name: "eval-refill",
  async run() {
    const result = await runEvalRefillBench();
    return { json: result, table: evalRefillTables(result) };
  },
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runEvalRefillBench();
  for (const table of evalRefillTables(result)) printTable(table.title, table.rows);
  process.stdout.write(`\n(simulated in ${result.wall_ms.toFixed(0)} ms)\n`);
}
