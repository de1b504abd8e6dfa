import cliProgress from "cli-progress";
import { Command, InvalidArgumentError } from "commander";
import {
  perfRunRequestSchema,
  type PerfEvent,
  type PerformanceResult,
} from "../../src-shared/contracts/bench.js";
import type { Core } from "../core/createCore.js";
import { setRootLogLevel } from "../core/createLogger.js";
import { PerchError } from "../core/PerchError.js";
import { describeUpload, formatPerfResult } from "../perf/formatPerfResult.js";
import { isTerminalEvent } from "../perf/PerfRun.js";
import { parseWith } from "../server/parseWith.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";

const parseList = (value: string) => {
  const numbers = value.split(",").map((part) => Number(part.trim()));
  if (numbers.some((n) => !Number.isInteger(n) || n <= 0))
    throw new InvalidArgumentError("expected e.g. 512,1024");
  return numbers;
};

const parsePositive = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError("expected a positive integer");
  return number;
};

interface BenchRunOptions extends GlobalOptionValues {
  model: string;
  promptLengths?: number[];
  batchSizes?: number[];
  generatedTokens?: number;
  threads?: number;
  upload?: boolean;
  json?: boolean;
}

/** Describes an event as one progress line (the bar's label, or a line when not on a terminal). */
function describeEvent(event: PerfEvent): string | undefined {
  switch (event.type) {
    case "phase":
      return event.phase;
    case "test_started":
      return event.kind === "single" ? `prompt ${event.prompt_tokens}` : `batch ${event.batch_size}`;
    case "test_skipped":
      return `skipped ${event.skipped.kind === "single" ? `prompt ${event.skipped.prompt_tokens}` : `batch ${event.skipped.batch_size}`}`;
    case "upload":
      return `upload ${describeUpload(event.status)}`;
    default:
      return undefined;
  }
}

/**
 * `perch bench run --model ID [--prompt-lengths 512,1024] [--batch-sizes 2,4] [--upload]`:
 * runs a performance benchmark in this process (no server needed), with a progress bar, then
 * prints the results table. The result is stored like a dashboard run's. Ctrl-C cancels.
 */
export function createBenchRunCommand(): Command {
  return addGlobalOptions(new Command("run"))
    .description("measure a model's speed: TTFT, prompt and generation tok/s, memory, concurrent requests")
    .requiredOption("--model <id>", "model id (see `perch models list`)")
    .option("--prompt-lengths <list>", "prompt tokens, from 128,512,1024,4096,8192,16384,32768", parseList)
    .option("--batch-sizes <list>", "concurrent requests, from 2,4,8 (0 or empty: none)", parseList)
    .option("--generated-tokens <n>", "tokens generated per request (default 128)", parsePositive)
    .option("--threads <n>", "CPU threads for llama.cpp", parsePositive)
    .option("--upload", "upload the result to the community benchmark site (off unless given)", false)
    .option("--json", "print the stored result as JSON instead of tables")
    .action(async (options: BenchRunOptions) => {
      setRootLogLevel("warn");
      try {
        const request = parseWith(
          perfRunRequestSchema,
          {
            model_id: options.model,
            ...(options.promptLengths ? { prompt_lengths: options.promptLengths } : {}),
            ...(options.batchSizes ? { batch_sizes: options.batchSizes } : {}),
            ...(options.generatedTokens ? { generated_tokens: options.generatedTokens } : {}),
            upload_to_community: Boolean(options.upload),
          },
          "options",
        );
        // Loaded when run, not at the top: `perch --help` must not pay for node-llama-cpp.
        const { createCore } = await import("../core/createCore.js");
        const core = await createCore({
          ...configFromOptions(options),
          ...(options.threads ? { threads: options.threads } : {}),
        });
        try {
          const result = await runWithProgress(core, request, Boolean(options.json));
          process.stdout.write(
            options.json ? `${JSON.stringify(result, null, 2)}\n` : formatPerfResult(result),
          );
        } finally {
          await core.close();
        }
      } catch (error) {
        const code = error instanceof PerchError ? error.code : "internal_error";
        process.stderr.write(`perch bench run: ${(error as Error).message} (${code})\n`);
        process.exitCode = code === "cancelled" ? 130 : 1;
      }
    });
}

async function runWithProgress(
  core: Core,
  request: ReturnType<typeof perfRunRequestSchema.parse>,
  quiet: boolean,
): Promise<PerformanceResult> {
  const perf = core.perf;
  const run = await perf.runner.start(request);
  const interactive = process.stderr.isTTY && !quiet;
  const bar = new cliProgress.SingleBar(
    {
      format: "{bar} {value}/{total} tests | {label}",
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const onSigint = () => run.cancel();
  process.once("SIGINT", onSigint);
  try {
    return await new Promise<PerformanceResult>((resolve, reject) => {
      let barStarted = false;
      let finishedSteps = 0;
      run.subscribe((event) => {
        const label = describeEvent(event);
        if (event.type === "started" && interactive) {
          bar.start(event.total_steps, 0, { label: "loading" });
          barStarted = true;
        }
        if (
          event.type === "single_completed" ||
          event.type === "batch_completed" ||
          event.type === "test_skipped"
        ) {
          finishedSteps = event.step;
        }
        if (barStarted) bar.update(finishedSteps, label ? { label } : {});
        else if (label && !quiet) process.stderr.write(`${label}\n`);
        if (!isTerminalEvent(event)) return;
        if (barStarted) bar.stop();
        if (event.type === "completed") resolve(event.result);
        else if (event.type === "cancelled") reject(new PerchError("cancelled", "The run was cancelled."));
        else if (event.type === "failed") reject(new PerchError(event.error.code, event.error.message));
      });
    });
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
