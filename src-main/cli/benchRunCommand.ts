import { apiStreams } from "../../src-shared/contracts/api.js";
import { buildPath } from "../../src-shared/contracts/routeInput.js";
import cliProgress from "cli-progress";
import { Command, InvalidArgumentError } from "commander";
import {
  perfBatchSizeOptions,
  perfEventSchema,
  perfPromptLengthOptions,
  perfRunRequestSchema,
  type PerfEvent,
  type PerformanceResult,
} from "../../src-shared/contracts/performance.js";
import { setRootLogLevel } from "../base/createLogger.js";
import { PerchError } from "../base/PerchError.js";
import { describeUpload, formatPerfResult } from "../perf/formatPerfResult.js";
import { isTerminalEvent } from "../perf/PerfRun.js";
import { parseWith } from "../base/parseWith.js";
import type { AdminClient } from "./client/AdminClient.js";
import { findServer } from "./client/findServer.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";
import { toPerchError } from "../base/describeError.js";
import { reportError } from "./reportError.js";

/** A comma-separated list whose every value is one of `allowed` (plain words, never zod's). */
const parseListFrom =
  (allowed: readonly number[], what: string, allowNone = false) =>
  (value: string): number[] => {
    if (allowNone && (value.trim() === "" || value.trim() === "0")) return [];
    const numbers = value.split(",").map((part) => Number(part.trim()));
    const wrong = numbers.filter((n) => !allowed.includes(n));
    if (wrong.length > 0)
      throw new InvalidArgumentError(`${what} must be from ${allowed.join(", ")} (got ${wrong.join(", ")})`);
    return numbers;
  };

const parseOneOf = (allowed: readonly number[], what: string) => (value: string) => {
  const number = Number(value);
  if (!allowed.includes(number))
    throw new InvalidArgumentError(`${what} must be one of ${allowed.join(", ")}`);
  return number;
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
  batchPromptLength?: number;
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
 * runs a performance benchmark with a progress bar, then prints the results table; the result is
 * stored like a dashboard run's. A running server runs it on its own engine (the model is not
 * loaded twice); otherwise it runs in this process. Ctrl-C cancels.
 */
export function createBenchRunCommand(): Command {
  return addGlobalOptions(new Command("run"))
    .description("measure a model's speed: TTFT, prompt and generation tok/s, memory, concurrent requests")
    .requiredOption("--model <id>", "model id (see `perch models list`)")
    .option(
      "--prompt-lengths <list>",
      `single-request prompt tokens, from ${perfPromptLengthOptions.join(",")}`,
      parseListFrom(perfPromptLengthOptions, "prompt lengths"),
    )
    .option(
      "--batch-sizes <list>",
      `concurrent requests, from ${perfBatchSizeOptions.join(",")} (0: no concurrent test)`,
      parseListFrom(perfBatchSizeOptions, "batch sizes", true),
    )
    .option(
      "--batch-prompt-length <n>",
      "prompt tokens of each request in the concurrent tests",
      parseOneOf(perfPromptLengthOptions, "the batch prompt length"),
    )
    .option("--generated-tokens <n>", "tokens generated per request", parsePositive)
    .option(
      "--threads <n>",
      "CPU threads for llama.cpp (in this process only, not a running server)",
      parsePositive,
    )
    .option("--upload", "upload the result to the community benchmark site")
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
            ...(options.batchPromptLength ? { batch_prompt_tokens: options.batchPromptLength } : {}),
            upload_to_community: Boolean(options.upload),
          },
          "options",
        );
        const print = ({ result, notSaved }: RunOutcome) => {
          process.stdout.write(
            options.json ? `${JSON.stringify(result, null, 2)}\n` : formatPerfResult(result),
          );
          // What was asked and not done fails the command (a script checks the exit code).
          if (result.single.length === 0 && result.batch.length === 0) {
            process.stderr.write(
              "perch bench run: nothing was measured (every test was skipped: see above) (invalid_request)\n",
            );
            process.exitCode = 1;
          } else if (
            options.upload &&
            (result.upload.state === "skipped" || result.upload.state === "failed")
          ) {
            process.exitCode = 1;
          }
          // Measured but not stored (a full disk), or cancelled part-way: the table above, then
          // why it is not a whole result (exit 130 for a cancel, as every command).
          if (notSaved) process.exitCode = reportError("bench run", notSaved);
        };
        const server = await findServer(options);
        if (server) {
          if (!options.json) process.stderr.write(`Running on the server at ${server.url}.\n`);
          print(await runWithProgress(await startOnServer(server, request), Boolean(options.json)));
          return;
        }
        const { createCore } = await import("../core/createCore.js");
        const core = await createCore({
          ...configFromOptions(options),
          ...(options.threads ? { threads: options.threads } : {}),
        });
        try {
          print(await runWithProgress(await core.perf.runner.start(request), Boolean(options.json)));
        } finally {
          await core.close();
        }
      } catch (error) {
        // 78 for an unreadable settings.json, 130 for a cancel, as every command.
        process.exitCode = reportError("bench run", error);
      }
    });
}

/** A performance run to follow: in this process, or on the running server. */
interface FollowedRun {
  subscribe(listener: (event: PerfEvent) => void): void;
  cancel(): void;
}

async function startOnServer(
  server: AdminClient,
  request: ReturnType<typeof perfRunRequestSchema.parse>,
): Promise<FollowedRun> {
  const { run_id: runId } = await server.request("startPerformanceRun", { body: request });
  const stop = new AbortController();
  return {
    subscribe(listener) {
      const onEvent = (event: PerfEvent) => {
        listener(event);
        if (isTerminalEvent(event)) stop.abort();
      };
      server
        .stream(
          buildPath(apiStreams.performanceRun.path, { run_id: runId }),
          (data) => {
            const parsed = perfEventSchema.safeParse(data);
            if (parsed.success) onEvent(parsed.data);
          },
          stop.signal,
        )
        .catch((error: unknown) => {
          const failure = toPerchError(error);
          listener({
            type: "failed",
            run_id: runId,
            at: new Date().toISOString(),
            error: { code: failure.code, message: failure.message },
          } as PerfEvent);
        });
    },
    cancel: () => void server.request("cancelPerformanceRun", { params: { run_id: runId } }).catch(() => {}),
  };
}

/** A run's result, and why it was not stored when only saving it failed. */
interface RunOutcome {
  result: PerformanceResult;
  /** Why the result is not a whole, stored one: not saved (disk full), or cancelled part-way. */
  notSaved?: PerchError;
}

async function runWithProgress(run: FollowedRun, quiet: boolean): Promise<RunOutcome> {
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
    return await new Promise<RunOutcome>((resolve, reject) => {
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
        if (event.type === "completed") resolve({ result: event.result });
        else if (event.type === "failed" && event.unsaved_result)
          resolve({
            result: event.unsaved_result,
            notSaved: new PerchError(event.error.code, event.error.message),
          });
        else if (event.type === "cancelled" && event.result)
          resolve({
            result: event.result,
            notSaved: new PerchError(
              "cancelled",
              `The run was cancelled; the tests it finished are above, saved as ${event.result.result_id} (marked cancelled: not the model's speed, not uploaded).`,
            ),
          });
        else if (event.type === "cancelled") reject(new PerchError("cancelled", "The run was cancelled."));
        else if (event.type === "failed") reject(new PerchError(event.error.code, event.error.message));
      });
    });
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
