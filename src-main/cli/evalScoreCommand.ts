import fs from "node:fs";
import readline from "node:readline";
import { Command } from "commander";
import { describeCliError } from "./reportError.js";
import { z } from "zod";
import type { BenchmarkName } from "../../src-shared/contracts/accuracy.js";
import { setRootLogLevel } from "../base/createLogger.js";
import { resolveConfig } from "../settings/PerchConfig.js";
import type { ResponseLine } from "../evals/scoreResponses.js";
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

async function readResponses(file: string): Promise<ResponseLine[]> {
  const lines: ResponseLine[] = [];
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
  const config = resolveConfig(configFromOptions(options));
  // The same Hub as `perch eval run`: the settings' hf_endpoint, then HF_ENDPOINT.
  const endpoints = await hubEndpoints(config.basePath);
  try {
    // Loaded when needed: `perch --help` must not pay for the benchmarks.
    const { scoreResponses } = await import("../evals/scoreResponses.js");
    const results = await scoreResponses({
      benchmark: name,
      variant: options.variant,
      datasetFile: options.dataset,
      datasetsDir: perchPaths(config.basePath).datasets,
      hubUrl: endpoints?.hf,
      hubToken: endpoints?.hfToken,
      python: await rememberedPython(config.basePath),
      lines: await readResponses(options.responses),
    });
    const passed = results.filter((result) => result.correct).length;
    if (options.json) {
      for (const result of results) io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stderr.write(`${passed} passed, ${results.length - passed} failed\n`);
      return 0;
    }
    const { score, failures } = formatScore(name, options.variant, results);
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
    const failure = describeCliError(error);
    io.stderr.write(`perch eval score: ${explainEvalFailure(failure, endpoints?.hf)}\n`);
    return 1;
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

/** The Hub endpoints `perch eval run` would use; undefined when settings.json cannot be read. */
async function hubEndpoints(basePath: string): Promise<{ hf: string; hfToken?: string } | undefined> {
  const { SettingsStore } = await import("../settings/SettingsStore.js");
  return new SettingsStore({ basePath }).hubEndpoints().catch(() => undefined);
}

/** The interpreter `perch eval run` remembered (settings.json), while it still works. */
async function rememberedPython(basePath: string): Promise<string | undefined> {
  const [{ SettingsStore }, { findPython }] = await Promise.all([
    import("../settings/SettingsStore.js"),
    import("../evals/scoring/findPython.js"),
  ]);
  const remembered = await new SettingsStore({ basePath })
    .get()
    .then((settings) => settings.python_path)
    .catch(() => null);
  return remembered ? findPython({ remembered })?.executable : undefined;
}
