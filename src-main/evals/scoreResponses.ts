import path from "node:path";
import type { BenchmarkName, QuestionResult } from "../../src-shared/contracts/accuracy.js";
import type { BenchmarkItem } from "./benchmarks/Benchmark.js";
import type { DatasetReader } from "./datasets/DatasetReader.js";
import { LocalFileDatasetReader } from "./datasets/LocalFileDatasetReader.js";
import { toDatasetError } from "./datasets/toDatasetError.js";
import { splitResponse } from "./runner/splitResponse.js";
import type { CodeSandbox } from "./scoring/SandboxRun.js";

/** One saved response to score, or an input line that could not be read (`invalid` says why). */
export type ResponseLine = { id: string; response: string } | { id: string | null; invalid: string };

/** A line that could not be scored: it still gets a result, and counts as failed. */
export interface UnscorableResult {
  id: string | null;
  correct: false;
  pass_mode: null;
  failure_type: null;
  error: string;
}

export type ScoredLine = (QuestionResult & { id: string }) | UnscorableResult;

export interface ScoreResponsesOptions {
  benchmark: BenchmarkName;
  /** Dataset variant (mbpp: full|sanitized, ...). Defaults to the benchmark's default. */
  variant?: string;
  /** The benchmark's dataset from this file. Defaults to the Hub cache in `datasetsDir`. */
  datasetFile?: string;
  /** Folder of the Hub dataset cache (`<base>/datasets`). */
  datasetsDir: string;
  /** Hub base URL, resolved as `eval run` does (settings, then `HF_ENDPOINT`). Defaults to `https://huggingface.co`. */
  hubUrl?: string;
  /** Hub token for gated datasets (settings, then `HF_TOKEN`). Defaults to none. */
  hubToken?: string;
  /**
   * The Python to score with: `perch eval run`'s, remembered in settings.json, so a rescore judges
   * like the run did. Defaults to the best one found.
   */
  python?: string;
  lines: readonly ResponseLine[];
}

function unscorable(id: string | null, error: string): UnscorableResult {
  return { id, correct: false, pass_mode: null, failure_type: null, error };
}

/**
 * Rescores saved responses without a model (`perch eval score`): loads the benchmark's items,
 * starts the code sandbox when the benchmark needs one, and scores each line by its item id.
 * Answers one result per line, in input order. The entry of evals for the CLI.
 */
export async function scoreResponses(options: ScoreResponsesOptions): Promise<ScoredLine[]> {
  // Loaded when needed: `perch --help` must not pay for the benchmarks and the worker pool.
  const { resolveBenchmark } = await import("./benchmarks/resolveBenchmark.js");
  const benchmark = resolveBenchmark(options.benchmark);
  const datasets: DatasetReader = options.datasetFile
    ? // The ids to score are named line by line: any row of the file may be asked for.
      new LocalFileDatasetReader(path.resolve(options.datasetFile), { wholeFile: true })
    : new (await import("./datasets/HubDatasetCache.js")).HubDatasetCache({
        dir: options.datasetsDir,
        hubUrl: options.hubUrl,
        accessToken: options.hubToken,
      });
  let sandbox: CodeSandbox | null = null;
  try {
    const items = await benchmark
      .loadItems({ datasets, variant: options.variant })
      .catch((error: unknown) => {
        throw toDatasetError(error, benchmark.name);
      });
    const byId = new Map<string, BenchmarkItem>(items.map((item) => [item.id, item]));
    if (benchmark.needsSandbox)
      sandbox = await (
        await import("./scoring/SandboxPool.js")
      ).SandboxPool.create(options.python ? { python: options.python } : {});
    const context = { sandbox: sandbox ?? undefined };
    return await Promise.all(
      options.lines.map(async (line): Promise<ScoredLine> => {
        if ("invalid" in line) return unscorable(line.id, `invalid input line: ${line.invalid}`);
        const item = byId.get(line.id);
        if (!item)
          return unscorable(line.id, `no item with id "${line.id}" in the ${benchmark.name} dataset`);
        return { ...(await benchmark.score(item, splitResponse(line.response), context)), id: line.id };
      }),
    );
  } finally {
    await sandbox?.close();
  }
}
