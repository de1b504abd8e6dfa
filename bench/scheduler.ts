import type { Token } from "node-llama-cpp";
import type { ModelSettings } from "../src-shared/contracts/settings.js";
import { PerchError } from "../src-main/core/PerchError.js";
import { EnginePool } from "../src-main/engine/EnginePool.js";
import { createLlamaProvider } from "../src-main/engine/createLlamaProvider.js";
import { testModelProgram } from "../src-main/engine/testModel/makeTestModel.js";
import type { GenerationRequest } from "../src-main/scheduler/GenerationRequest.js";
import { Scheduler } from "../src-main/scheduler/Scheduler.js";
import { printTable, type BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";
import { measureDecodeCost, type DecodeCostRow } from "./schedulerDecodeCost.js";
import { median, percentile } from "./schedulerStatistics.js";

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
}

export interface ConcurrencyRow {
  concurrency: number;
  requests: number;
  generated_tokens: number;
  aggregate_tps: number;
  ttft_p50_ms: number;
  ttft_p95_ms: number;
  per_request_tps_p50: number;
}

export interface SpeculationRow {
  mode: "off" | "draft" | "lookup";
  runs: number;
  generated_tokens: number;
  /** Median over runs of generated tokens / wall seconds of the request. */
  tps_median: number;
  validated: number;
  refuted: number;
  /** validated / (validated + refuted); 0 when nothing was drafted. */
  acceptance_rate: number;
  /** Whether every run produced the same text as mode "off". */
  same_text_as_off: boolean;
}

export interface SchedulerBenchResult {
  model: string;
  threads: number;
  concurrency: ConcurrencyRow[];
  speculation: SpeculationRow[];
  decode_cost: DecodeCostRow[];
  notes: string[];
}

const sequences = 8;
const words = ["alpha", "beta", "gamma", "delta", "river", "stone", "cloud", "ember", "maple", "orbit"];

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
  const engine = new EnginePool({
    getLlama: createLlamaProvider({ gpu: false }),
    resolveModel: async (id) => {
      const model = models[id];
      if (!model) throw new PerchError("model_not_found", `No bench model '${id}'`);
      return { id, ...model };
    },
    threads: 1,
    defaultTtlSeconds: 0,
  });
  const scheduler = new Scheduler({ engine });
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
    return {
      model: modelPath,
      threads: 1,
      concurrency,
      speculation,
      decode_cost: decodeCost,
      notes: [
        "Scheduler called directly (no HTTP); one context, 8 sequences, threads: 1.",
        "On this CPU a k-token decode costs roughly k single-token decodes (decode_cost), so batching and speculation add little or lose here; on Metal a multi-token decode costs about one.",
      ],
    };
  } finally {
    await engine.unloadAll();
  }
}

function request(requestId: string, modelId: string, text: string, maxTokens: number): GenerationRequest {
  return {
    requestId,
    modelId,
    prompt: { kind: "text", text },
    sampling: { temperature: 0 },
    maxTokens,
    ignoreEos: true,
  };
}

async function measureConcurrency(
  scheduler: Scheduler,
  level: number,
  perClient: number,
  maxTokens: number,
): Promise<ConcurrencyRow> {
  const ttfts: number[] = [];
  const perRequestTps: number[] = [];
  let generated = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: level }, async (_, client) => {
      for (let round = 0; round < perClient; round++) {
        // Distinct prompts: no request reuses another's cached prefix.
        const text = `${words[client % words.length]} ${round} ${words.join(" ")} ${client}`;
        const sent = performance.now();
        let firstText: number | undefined;
        const result = await scheduler.generate({
          ...request(`c${level}-${client}-${round}`, "batch", text, maxTokens),
          onText: () => (firstText ??= performance.now()),
        });
        const done = performance.now();
        ttfts.push((firstText ?? done) - sent);
        perRequestTps.push(result.usage.completionTokens / ((done - sent) / 1000));
        generated += result.usage.completionTokens;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    concurrency: level,
    requests: level * perClient,
    generated_tokens: generated,
    aggregate_tps: generated / seconds,
    ttft_p50_ms: percentile(ttfts, 50),
    ttft_p95_ms: percentile(ttfts, 95),
    per_request_tps_p50: median(perRequestTps),
  };
}

/**
 * The copy workload: a prompt holding the highest-priority token of the test model's program
 * (so the next token depends only on the last two), then that prompt's own greedy continuation,
 * then the prompt again. Greedy decoding then repeats the continuation, which is in the prompt.
 */
async function copyPrompt(scheduler: Scheduler, engine: EnginePool, maxTokens: number): Promise<string> {
  const program = testModelProgram();
  const topLevel = program.rankOfLevel.indexOf(program.rankOfLevel.length - 1);
  const loaded = await engine.acquire("off");
  let anchor = "";
  try {
    for (let token = 0; token < program.codeOfToken.length && !anchor; token++) {
      if ((program.codeOfToken[token] & (program.rankOfLevel.length - 1)) !== topLevel) continue;
      const text = loaded.model.detokenize([token as Token]);
      if (/^[ -~]+$/.test(text) && loaded.model.tokenize(text).length === 1) anchor = text;
    }
  } finally {
    engine.release(loaded);
  }
  const source = `${anchor} def fibonacci(n):\n    if n < 2:\n        return n\n    return fibonacci(n - 1) + fibonacci(n - 2)\n`;
  const continuation = await scheduler.generate(request("copy-source", "off", source, maxTokens));
  return `${source}${continuation.text}\n${source}`;
}

async function measureSpeculation(
  scheduler: Scheduler,
  engine: EnginePool,
  runs: number,
  maxTokens: number,
): Promise<SpeculationRow[]> {
  const prompt = await copyPrompt(scheduler, engine, maxTokens);
  const rows: SpeculationRow[] = [];
  let offText: string | undefined;
  for (const mode of ["off", "draft", "lookup"] as const) {
    await scheduler.generate(request(`${mode}-warmup`, mode, prompt, maxTokens));
    const tps: number[] = [];
    let validated = 0;
    let refuted = 0;
    let generated = 0;
    let same = true;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const result = await scheduler.generate(request(`${mode}-${run}`, mode, prompt, maxTokens));
      tps.push(result.usage.completionTokens / ((performance.now() - started) / 1000));
      validated += result.speculative?.validated ?? 0;
      refuted += result.speculative?.refuted ?? 0;
      generated += result.usage.completionTokens;
      offText ??= result.text;
      same &&= result.text === offText;
    }
    rows.push({
      mode,
      runs,
      generated_tokens: generated,
      tps_median: median(tps),
      validated,
      refuted,
      acceptance_rate: validated + refuted > 0 ? validated / (validated + refuted) : 0,
      same_text_as_off: same,
    });
  }
  return rows;
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
  ];
}

export function printSchedulerBench(result: SchedulerBenchResult): void {
  for (const table of schedulerBenchTables(result)) printTable(table.title, table.rows);
  for (const note of result.notes) process.stdout.write(`  note: ${note}\n`);
}

export const schedulerSection: BenchSection = {
  name: "scheduler",
  run: async () => {
    const result = await runSchedulerBench();
    return { json: result, table: schedulerBenchTables(result) };
  },
};
