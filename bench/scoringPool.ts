import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { humanEvalBenchmark } from "../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import type { HumanEvalItem } from "../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";
import { LocalFileDatasetReader } from "../src-main/evals/datasets/LocalFileDatasetReader.js";
import { InlineSandbox } from "../src-main/evals/scoring/InlineSandbox.js";
import type { CodeSandbox } from "../src-main/evals/scoring/SandboxRun.js";
import { SandboxPool } from "../src-main/evals/scoring/SandboxPool.js";
import { printTable, type BenchSection } from "./BenchSection.js";
import { splitResponse } from "../src-main/evals/runner/splitResponse.js";

export interface ScoringPoolBenchOptions {
  /** HumanEval file. Defaults to the repository's `tests/fixtures/datasets/HumanEval.jsonl.gz`. */
  datasetFile?: string;
  /** Pool threads. Defaults to the pool's own default (CPU count, 1 to 4). */
  threads?: number;
}

export interface ScoringPoolBenchResult {
  items: number;
  mode: string;
  threads: number;
  /** Start-up until the first check answered (probing the sandbox, threads, zygotes). */
  sequential_startup_s: number;
  pool_startup_s: number;
  /** Scoring the canonical solutions one after another on one sandbox process. */
  sequential_s: number;
  /** Scoring them all at once through the worker pool. */
  pool_s: number;
  sequential_per_s: number;
  pool_per_s: number;
  speedup: number;
  /** Both must be true: a fast scorer that fails correct code measures nothing. */
  sequential_all_passed: boolean;
  pool_all_passed: boolean;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, (performance.now() - started) / 1000];
}

/**
 * Throughput of the scoring worker pool against sequential scoring, on the 164 canonical HumanEval
 * solutions given as bodies (one sandbox check each).
 */
export async function benchScoringPool(
  options: ScoringPoolBenchOptions = {},
): Promise<ScoringPoolBenchResult> {
  const file = options.datasetFile ?? path.resolve(repoRoot, "tests/fixtures/datasets/HumanEval.jsonl.gz");
  const items = await humanEvalBenchmark.loadItems({ datasets: new LocalFileDatasetReader(file) });
  const scoreAll = async (sandbox: CodeSandbox, parallel: boolean) => {
    const score = (item: HumanEvalItem) =>
      humanEvalBenchmark.score(item, splitResponse(item.canonicalSolution), { sandbox });
    if (parallel) return Promise.all(items.map(score));
    const results = [];
    for (const item of items) results.push(await score(item));
    return results;
  };
  const warmUp = (sandbox: CodeSandbox, checks: number) =>
    Promise.all(Array.from({ length: checks }, () => sandbox.run({ code: "pass" })));

  const [inline, sequentialStartup] = await timed(async () => {
    const sandbox = await InlineSandbox.create({ processes: 1 });
    await warmUp(sandbox, 1);
    return sandbox;
  });
  const [sequential, sequentialSeconds] = await timed(() => scoreAll(inline, false));
  await inline.close();

  const [pool, poolStartup] = await timed(async () => {
    const sandbox = await SandboxPool.create({ threads: options.threads });
    await warmUp(sandbox, sandbox.threads * 2);
    return sandbox;
  });
  const [parallel, poolSeconds] = await timed(() => scoreAll(pool, true));
  await pool.close();

  return {
    items: items.length,
    mode: pool.setup.mode,
    threads: pool.threads,
    sequential_startup_s: sequentialStartup,
    pool_startup_s: poolStartup,
    sequential_s: sequentialSeconds,
    pool_s: poolSeconds,
    sequential_per_s: items.length / sequentialSeconds,
    pool_per_s: items.length / poolSeconds,
    speedup: sequentialSeconds / poolSeconds,
    sequential_all_passed: sequential.every((result) => result.correct),
    pool_all_passed: parallel.every((result) => result.correct),
  };
}

export const scoringPoolSection: BenchSection = {
  name: "scoring-pool",
  run: async () => {
    const result = await benchScoringPool();
    return {
      json: result,
      table: [
        {
          title: `Scoring pool vs sequential: ${result.items} canonical HumanEval solutions (${result.mode}, ${result.threads} threads)`,
          rows: [
            {
              scorer: "sequential",
              seconds: result.sequential_s,
              per_s: result.sequential_per_s,
              all_passed: String(result.sequential_all_passed),
            },
            {
              scorer: "pool",
              seconds: result.pool_s,
              per_s: result.pool_per_s,
              all_passed: String(result.pool_all_passed),
            },
          ],
        },
      ],
    };
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { json, table } = await scoringPoolSection.run();
  for (const { title, rows } of table) printTable(title, rows);
  process.stdout.write(`\n${JSON.stringify(json, null, 2)}\n`);
}
