import path from "node:path";
import type { ModelSettings } from "../src-shared/contracts/settings.js";
import { PerchError } from "../src-main/base/PerchError.js";
import { EnginePool } from "../src-main/engine/EnginePool.js";
import { createLlamaProvider } from "../src-main/engine/createLlamaProvider.js";
import { Scheduler } from "../src-main/scheduler/Scheduler.js";
import { printTable, type BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";
import { measureConcurrency, type ConcurrencyRow } from "./schedulerConcurrency.js";
import { measureDecodeCost, type DecodeCostRow } from "./schedulerDecodeCost.js";
import { measureDecodeShaping, type DecodeShapingResult } from "./schedulerDecodeShaping.js";
import { measureDecodeThreads, type DecodeThreadsResult } from "./schedulerDecodeThreads.js";
import { defaultThreads } from "../src-main/settings/PerchConfig.js";
import { benchRequest as request } from "./schedulerRequest.js";
import { measureSpeculation, type SpeculationRow } from "./schedulerSpeculation.js";

export interface SchedulerBenchOptions {
  /** Target model file. Defaults to the generated test model. */
  modelPath?: string;
  /** Draft model file (same vocabulary). Defaults to the generated draft model. */
  draftPath?: string;
  /** Concurrent clients per level. Defaults to `[1, 2, 4, 8]`. */
  concurrency?: number[];
  /** Requests each client sends back to back. Defaults to `3`. */
  requestsPerClient?: number;
  /** Generated tokens per request (end-of-generation ignored). Defaults to `64`. */
  maxTokens?: number;
  /** Timed runs per speculation mode (after one warm-up). Defaults to `3`. */
  speculationRuns?: number;
  /** Client counts at which decode shaping is compared with decoding all together. Defaults to `[2, 3, 5]`. */
  shapingLevels?: number[];
  /** Interleaved rounds per level of that comparison. Defaults to `3`. */
  shapingRounds?: number;
  /** Client counts at which the thread count per decode is compared with fixed threads. Defaults to `[1, 4]`. */
  threadLevels?: number[];
}

export interface SchedulerBenchResult {
  model: string;
  threads: number;
  concurrency: ConcurrencyRow[];
  speculation: SpeculationRow[];
  decode_cost: DecodeCostRow[];
  decode_shaping: DecodeShapingResult;
  decode_threads: DecodeThreadsResult;
  notes: string[];
}

const sequences = 8;

/**
 * Scheduler throughput straight through `Scheduler.generate` (no HTTP): aggregate tok/s and TTFT
 * at several concurrency levels on one 8-sequence context, and speculation off / draft / lookup
 * on a workload that copies from its prompt. `decode_cost` shows why batching and speculation
 * may lose on a CPU: a decode of k tokens costs about k single-token decodes there.
 */
export async function runSchedulerBench(options: SchedulerBenchOptions = {}): Promise<SchedulerBenchResult> {
  const files = options.modelPath && options.draftPath ? undefined : await benchModels();
  const modelPath = options.modelPath ?? files!.main;
  const draftPath = options.draftPath ?? files!.draft;
  const maxTokens = options.maxTokens ?? 64;
  const base: ModelSettings = { context_size: 2048, max_concurrent_requests: sequences, max_queue: 256 };
  const models: Record<string, { path: string; settings: ModelSettings }> = {
    batch: { path: modelPath, settings: base },
    off: { path: modelPath, settings: { ...base, max_concurrent_requests: 1 } },
    draft: {
      path: modelPath,
      settings: {
        ...base,
        max_concurrent_requests: 1,
        speculative: { mode: "draft", draftModel: "draft-model" },
      },
    },
    lookup: {
      path: modelPath,
      settings: { ...base, max_concurrent_requests: 1, speculative: { mode: "lookup", maxDraftTokens: 8 } },
    },
    "draft-model": { path: draftPath, settings: {} },
  };
  const createEngine = (threads = 1) =>
    new EnginePool({
      getLlama: createLlamaProvider({ gpu: false }),
      resolveModel: async (id) => {
        const model = models[id];
        if (!model) throw new PerchError("model_not_found", `No bench model '${id}'`);
        return { id, ...model };
      },
      threads,
      defaultTtlSeconds: 0,
    });
  const engine = createEngine();
  const scheduler = new Scheduler({ engine });
  // The same model on a second pool, decoding every waiting sequence together (decode shaping off).
  const wholeEngine = createEngine();
  const whole = new Scheduler({ engine: wholeEngine, decodeShaping: "off" });
  try {
    const concurrency: ConcurrencyRow[] = [];
    await scheduler.generate(request("warmup", "batch", "warm up", 8));
    for (const level of options.concurrency ?? [1, 2, 4, 8]) {
      concurrency.push(await measureConcurrency(scheduler, level, options.requestsPerClient ?? 3, maxTokens));
    }
    const speculation = await measureSpeculation(
      scheduler,
      engine,
      options.speculationRuns ?? 3,
      2 * maxTokens,
    );
    const decodeCost = await measureDecodeCost(engine, "batch");
    const decodeShaping = await measureDecodeShaping(
      scheduler,
      whole,
      options.shapingLevels ?? [2, 3, 5],
      options.shapingRounds ?? 3,
      maxTokens,
    );
    await wholeEngine.unloadAll();
    // Perch's default thread count on two more pools: threads chosen per decode, and fixed.
    const threads = defaultThreads();
    const chosenEngine = createEngine(threads);
    const fixedEngine = createEngine(threads);
    const decodeThreads = await measureDecodeThreads(
      new Scheduler({ engine: chosenEngine }),
      new Scheduler({ engine: fixedEngine, decodeThreads: "off" }),
      threads,
      options.threadLevels ?? [1, 4],
      options.shapingRounds ?? 3,
      maxTokens,
    ).finally(() => Promise.all([chosenEngine.unloadAll(), fixedEngine.unloadAll()]));
    return {
      model: path.basename(modelPath),
      threads: 1,
      concurrency,
      speculation,
      decode_cost: decodeCost,
      decode_shaping: decodeShaping,
      decode_threads: decodeThreads,
      notes: describeFindings(concurrency, speculation, decodeCost, decodeShaping, decodeThreads),
    };
  } finally {
    await Promise.all([engine.unloadAll(), wholeEngine.unloadAll()]);
  }
}

type TableRow = Record<string, string | number>;

/** A report row as a table row: booleans read "yes" / "no". */
function toTableRow(row: object): TableRow {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === "boolean" ? (value ? "yes" : "no") : value,
    ]),
  ) as TableRow;
}

/** What the figures say, in words computed from them (never asserted ahead of the run). */
function describeFindings(
  concurrency: ConcurrencyRow[],
  speculation: SpeculationRow[],
  decodeCost: DecodeCostRow[],
  decodeShaping: DecodeShapingResult,
  decodeThreads: DecodeThreadsResult,
): string[] {
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? (a / b).toFixed(2) : "n/a");
  const single = concurrency.find((row) => row.concurrency === 1)?.aggregate_tps;
  const widest = concurrency.at(-1);
  const off = speculation.find((row) => row.mode === "off")?.tps_median;
  const eight = decodeCost.find((row) => row.tokens_per_decode === 8)?.cost_vs_one_token;
  return [
    "Scheduler called directly (no HTTP); one context with 8 sequences; threads: 1.",
    `A decode of 8 tokens of one sequence costs ${eight?.toFixed(2) ?? "n/a"}x a one-token decode here (1x would make extra tokens free, as on a GPU; 8x would make them full price).`,
    `Aggregate generation at ${widest?.concurrency ?? "?"} clients: ${ratio(widest?.aggregate_tps, single)}x one client.`,
    ...speculation
      .filter((row) => row.mode !== "off")
      .map(
        (row) =>
          `Speculation '${row.mode}': ${ratio(row.tps_median, off)}x the tok/s of 'off', ${(100 * row.acceptance_rate).toFixed(0)}% of drafted tokens accepted.`,
      ),
    `Decode shaping (one-token decodes in measured chunks) against all together: ${decodeShaping.rows
      .map(
        (row) =>
          `${row.concurrency} clients ${row.shaped_vs_whole.toFixed(2)}x (${(100 * row.chunked_share).toFixed(0)}% chunked)`,
      )
      .join(", ")}; measured decode ms by sequences: ${decodeShaping.estimates
      .map((estimate) => `${estimate.size}: ${estimate.ms.toFixed(1)}`)
      .join(", ")}.`,
    decodeThreads.threads <= 1
      ? "Thread count per decode: one thread configured, nothing to choose."
      : `Thread count per decode (one thread or ${decodeThreads.threads}, measured) against always ${decodeThreads.threads}: ${decodeThreads.rows
          .map(
            (row) =>
              `${row.concurrency} clients ${row.chosen_vs_configured.toFixed(2)}x (${(100 * row.one_thread_share).toFixed(0)}% on one thread)`,
          )
          .join(
            ", ",
          )}; measured ms by decode size (1 thread / ${decodeThreads.threads}): ${decodeThreads.sizes
          .map(
            (size) =>
              `${size.tokens}: ${size.oneThreadMs?.toFixed(1) ?? "-"} / ${size.allThreadsMs?.toFixed(1) ?? "-"}`,
          )
          .join(", ")}.`,
  ];
}

/** The readable half of the report. */
export function schedulerBenchTables(result: SchedulerBenchResult): { title: string; rows: TableRow[] }[] {
  return [
    {
      title: "Scheduler: concurrency (generate() directly, 1 thread)",
      rows: result.concurrency.map(toTableRow),
    },
    {
      title: "Scheduler: speculation on a prompt-copying workload (1 sequence)",
      rows: result.speculation.map(toTableRow),
    },
    {
      title: "Decode cost by tokens in one decode (why a CPU gains little)",
      rows: result.decode_cost.map(toTableRow),
    },
    {
      title: "Decode shaping against decoding every waiting sequence together",
      rows: result.decode_shaping.rows.map(toTableRow),
    },
    {
      title: `Thread count per decode (1 or ${result.decode_threads.threads}, measured) against always ${result.decode_threads.threads}`,
      rows: result.decode_threads.rows.map(toTableRow),
    },
  ];
}

export function printSchedulerBench(result: SchedulerBenchResult): void {
  for (const table of schedulerBenchTables(result)) printTable(table.title, table.rows);
  for (const note of result.notes) process.stdout.write(`  note: ${note}\n`);
}

/**
 * `npm run bench` section: the tiny test model (scheduling overhead dominates), then, when it has
 * been generated, the realistic-shape model with fewer tokens (compute dominates; ~5 minutes).
 */
export const schedulerSection: BenchSection = {
  name: "scheduler",
  run: async () => {
    const models = await benchModels();
    const results = [await runSchedulerBench({ modelPath: models.main, draftPath: models.draft })];
    if (models.realistic) {
      results.push(
        await runSchedulerBench({
          modelPath: models.realistic,
          draftPath: models.draft,
          requestsPerClient: 1,
          maxTokens: 32,
          speculationRuns: 2,
        }),
      );
    }
    return {
      json: results,
      table: results.flatMap((result) =>
        schedulerBenchTables(result).map((table) => ({
          ...table,
          title: `${table.title} [${result.model}]`,
        })),
      ),
    };
  },
};
