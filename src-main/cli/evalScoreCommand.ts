import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Command } from "commander";
import { z } from "zod";
import type { BenchmarkName, QuestionResult } from "../../src-shared/contracts/accuracy.js";
import { setRootLogLevel } from "../base/createLogger.js";
import { resolveConfig } from "../settings/PerchConfig.js";
import { PerchError } from "../base/PerchError.js";
import type { BenchmarkItem } from "../evals/benchmarks/Benchmark.js";
import type { DatasetReader } from "../evals/datasets/DatasetReader.js";
import { LocalFileDatasetReader } from "../evals/datasets/LocalFileDatasetReader.js";
import { splitResponse } from "../evals/runner/splitResponse.js";
import type { CodeSandbox } from "../evals/scoring/SandboxRun.js";
import { explainEvalFailure } from "./explainEvalFailure.js";
import { formatScore } from "./formatEvalSummary.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";
import { resolveBenchmarkName } from "./resolveBenchmarkName.js";
import { errorMessage } from "../base/describeError.js";
import { perchPaths } from "../base/perchPaths.js";

export interface EvalScoreOptions extends GlobalOptionValues {
  benchmark: string;
  responses: string;
  dataset?: string;
  variant?: string;
  /** Print one JSON result per input line instead of the summary. Defaults to `false`. */
  json?: boolean;
}

/** One input line: GSM8K ids are 0-based line numbers, MBPP task ids may be numbers. */
const responseLineSchema = z.object({ id: z.union([z.string(), z.number()]), response: z.string() });

type Line = { id: string; response: string } | { id: string | null; invalid: string };

async function readResponses(file: string): Promise<Line[]> {
  const lines: Line[] = [];
  const input = readline.createInterface({
    input: fs.createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const text of input) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      lines.push({ id: null, invalid: "not JSON" });
      continue;
    }
    const parsed = responseLineSchema.safeParse(value);
    if (parsed.success) lines.push({ id: String(parsed.data.id), response: parsed.data.response });
    else lines.push({ id: null, invalid: 'expected {"id", "response"}' });
  }
  return lines;
}

/** A line that could not be scored: it still gets an output line, and counts as failed. */
function unscorable(id: string | null, error: string) {
  return { id, correct: false, pass_mode: null, failure_type: null, error };
}

/**
 * Rescores saved responses without a model (`perch eval score`): a summary in `eval run`'s words
 * (score, failure counts, the failed ids) on `stdout`; with `json`, one JSON result per input line
 * in input order, then `N passed, N failed` on `stderr`. Resolves with the exit code.
 */
export async function runEvalScore(
  options: EvalScoreOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
): Promise<number> {
  let name: BenchmarkName;
  try {
    name = resolveBenchmarkName(options.benchmark);
  } catch (error) {
    io.stderr.write(`perch eval score: ${errorMessage(error)} (invalid_request)\n`);
    return 2;
  }
  const { resolveBenchmark } = await import("../evals/benchmarks/resolveBenchmark.js");
  const benchmark = resolveBenchmark(name);
  const config = resolveConfig(configFromOptions(options));
  const datasets: DatasetReader = options.dataset
    ? new LocalFileDatasetReader(path.resolve(options.dataset))
    : new (await import("../evals/datasets/HubDatasetCache.js")).HubDatasetCache({
        dir: perchPaths(config.basePath).datasets,
      });
  let sandbox: CodeSandbox | null = null;
  try {
    const items = await benchmark.loadItems({ datasets, variant: options.variant });
    const byId = new Map<string, BenchmarkItem>(items.map((item) => [item.id, item]));
    const lines = await readResponses(options.responses);
    // Loaded when needed: `perch --help` must not pay for the worker pool.
    if (benchmark.needsSandbox)
      sandbox = await (await import("../evals/scoring/SandboxPool.js")).SandboxPool.create();
    const context = { sandbox: sandbox ?? undefined };
    const results = await Promise.all(
      lines.map(async (line): Promise<QuestionResult | ReturnType<typeof unscorable>> => {
        if ("invalid" in line) return unscorable(line.id, `invalid input line: ${line.invalid}`);
        const item = byId.get(line.id);
        if (!item)
          return unscorable(line.id, `no item with id "${line.id}" in the ${benchmark.name} dataset`);
        return { ...(await benchmark.score(item, splitResponse(line.response), context)), id: line.id };
      }),
    );
    const passed = results.filter((result) => result.correct).length;
    if (options.json) {
      for (const result of results) io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stderr.write(`${passed} passed, ${results.length - passed} failed\n`);
      return 0;
    }
    const { score, failures } = formatScore(benchmark.name, options.variant, results);
    io.stdout.write(`${score}${failures ? ` | ${failures}` : ""}\n`);
    const failed = results.filter((result) => !result.correct).map((result) => result.id ?? "(invalid line)");
    if (failed.length > 0) {
      const shown = failed.slice(0, 20).join(", ");
      io.stdout.write(
        `failed: ${shown}${failed.length > 20 ? `, … ${failed.length - 20} more (--json for all)` : ""}\n`,
      );
    }
    return 0;
  } catch (error) {
    const failure =
      error instanceof PerchError
        ? { code: error.code, message: error.message }
        : { code: "internal_error", message: String(error) };
    io.stderr.write(`perch eval score: ${explainEvalFailure(failure, undefined)}\n`);
    return 1;
  } finally {
    await sandbox?.close();
  }
}

/** `perch eval score`: add it under the `eval` command. */
export function createEvalScoreCommand(): Command {
  return addGlobalOptions(new Command("score"))
    .description("rescore saved responses without a model (after scorer fixes, or from another tool)")
    .requiredOption(
      "--benchmark <name>",
      "humaneval | mbpp | livecodebench | gsm8k | mmlu (or another benchmark name)",
    )
    .requiredOption(
      "--responses <file>",
      'JSONL, one {"id", "response"} per line (GSM8K id: 0-based line number)',
    )
    .option(
      "--dataset <file>",
      "the original dataset file (HumanEval.jsonl.gz, mbpp.jsonl, gsm8k-test.jsonl, ...)",
    )
    .option("--variant <name>", "dataset variant when downloading (e.g. mbpp sanitized)")
    .option("--json", "print one JSON result per response line instead of the summary")
    .action(async (options: EvalScoreOptions) => {
      setRootLogLevel("warn");
      process.exitCode = await runEvalScore(options);
    });
}
