import { Command, InvalidArgumentError, Option } from "commander";
import type { AccuracyResult } from "../../src-shared/contracts/accuracy.js";
import { evalBatchSizes, evalRunAddRequestSchema } from "../../src-shared/contracts/evalQueue.js";
import { setRootLogLevel } from "../base/createLogger.js";
import type { PerchConfig } from "../settings/PerchConfig.js";
import { PerchError } from "../base/PerchError.js";
import type { Core, CoreOptions } from "../core/createCore.js";
import { parseWith } from "../base/parseWith.js";
import type { AdminClient } from "./client/AdminClient.js";
import { findServer } from "./client/findServer.js";
import { explainEvalFailure } from "./explainEvalFailure.js";
import { followEvalRun } from "./followEvalRun.js";
import { followServerEvalRun } from "./followServerEvalRun.js";
import { formatEvalSummary } from "./formatEvalSummary.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";
import { resolveBenchmarkName } from "./resolveBenchmarkName.js";
import { describeError } from "../base/describeError.js";

type EvalRunAddRequest = ReturnType<typeof evalRunAddRequestSchema.parse>;

/** The part of the core a run in this process uses: its eval queue, its result store, its settings. */
export interface EvalRunCore {
  readonly evals: Pick<Core["evals"], "add" | "get" | "subscribe" | "close">;
  readonly accuracyResults: { get(resultId: string): Promise<AccuracyResult> };
  readonly settings: { hubEndpoints(): Promise<{ hf: string }> };
  close(): Promise<void>;
}

export interface EvalRunCommandDependencies {
  /** Opens the core the run goes through when no server runs. Defaults to `createCore`. */
  createCore?: (config: Partial<PerchConfig>, options: CoreOptions) => Promise<EvalRunCore>;
  /** Defaults to `process.stdout`. */
  stdout?: NodeJS.WritableStream;
  /** Defaults to `process.stderr` (progress and errors). */
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  /** The running server to queue the run on, or null to run here. Defaults to `findServer`. */
  findServer?: (options: GlobalOptionValues) => Promise<AdminClient | null>;
}

interface EvalRunOptions extends GlobalOptionValues {
  model: string;
  benchmark: string[];
  batchSize?: number;
  limit?: number;
  sampling: string;
  thinking: string;
  variant?: string;
  offline?: boolean;
  dataset?: string;
  json?: boolean;
}

const parseBatchSize = (value: string) => {
  const number = Number(value);
  if (!(evalBatchSizes as readonly number[]).includes(number)) {
    throw new InvalidArgumentError(`expected one of ${evalBatchSizes.join(", ")}`);
  }
  return number;
};

const parseCount = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError("expected a whole number");
  return number;
};

/**
 * `perch eval run --model ID --benchmark NAME [--batch-size N] [--limit N] [--sampling P]`:
 * measures a model's accuracy through the same queue and runner as the dashboard, with a progress
 * bar; results are stored like a dashboard run's. When a server runs, the run is queued there so
 * the model is not loaded twice; otherwise (or with `--dataset FILE`) it runs in this process.
 * Ctrl-C cancels and keeps the partial result.
 */
export function createEvalRunCommand(deps: EvalRunCommandDependencies = {}): Command {
  return addGlobalOptions(new Command("run"))
    .description("measure a model's accuracy on benchmarks (HumanEval, MBPP, GSM8K, MMLU, ...)")
    .requiredOption("--model <id>", "model id (see `perch models list`)")
    .requiredOption("--benchmark <names>", "benchmark(s), comma-separated: humaneval,gsm8k", (value) =>
      value
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .option(`--batch-size <n>`, `generations in flight: ${evalBatchSizes.join(", ")}`, parseBatchSize)
    .option("--limit <n>", "questions per benchmark, a stratified sample (all when not given)", parseCount)
    .addOption(
      new Option("--sampling <profile>", "sampling profile")
        .choices(["deterministic", "model_settings"])
        .default("deterministic"),
    )
    .addOption(new Option("--thinking <mode>", "reasoning").choices(["auto", "on", "off"]).default("auto"))
    .option("--variant <name>", "dataset variant (mbpp: full|sanitized, gsm8k: zero_shot|few_shot, ...)")
    .option("--offline", "use only cached datasets; never download")
    .option(
      "--dataset <file>",
      "the benchmark's dataset from a file (HumanEval.jsonl.gz, mbpp.jsonl, gsm8k-test.jsonl, ...): no download",
    )
    .option("--json", "print the stored results as JSON instead of a summary")
    .action(async (options: EvalRunOptions) => {
      const stdout = deps.stdout ?? process.stdout;
      const stderr = deps.stderr ?? process.stderr;
      setRootLogLevel("warn");
      let request: EvalRunAddRequest;
      try {
        const benchmarks = options.benchmark.map(resolveBenchmarkName);
        if (options.dataset && benchmarks.length !== 1) {
          throw new PerchError(
            "invalid_request",
            "--dataset holds one benchmark's data: give one --benchmark.",
          );
        }
        request = parseWith(
          evalRunAddRequestSchema,
          {
            model_id: options.model,
            benchmarks,
            ...(options.batchSize ? { batch_size: options.batchSize } : {}),
            ...(options.limit ? { sample_size: options.limit } : {}),
            sampling_profile: options.sampling,
            thinking: options.thinking,
            ...(options.offline ? { offline: true } : {}),
            ...(options.variant
              ? { variants: Object.fromEntries(benchmarks.map((name) => [name, options.variant])) }
              : {}),
          },
          "options",
        );
      } catch (error) {
        const { code, message } = describeError(error, "invalid_request");
        stderr.write(`perch eval run: ${message} (${code})\n`);
        process.exitCode = 2;
        return;
      }
      const server = options.dataset ? null : await (deps.findServer ?? findServer)(options);
      if (server) {
        process.exitCode = await runOnServer(server, request, {
          stdout,
          stderr,
          json: Boolean(options.json),
        });
        return;
      }
      // Loaded when run, not at the top: `perch --help` must not pay for node-llama-cpp.
      const create = deps.createCore ?? (await import("../core/createCore.js")).createCore;
      const core = await create(configFromOptions(options), {
        evalDatasets: { file: options.dataset, offline: Boolean(options.offline) },
      });
      const queue = core.evals;
      let exitCode = 0;
      const onSigint = () => void queue.close();
      process.once("SIGINT", onSigint);
      try {
        const run = await queue.add(request);
        const finished = await followEvalRun(queue, run.run_id, stderr, Boolean(options.json));
        // The stored results, as the dashboard reads them back.
        const saved = await Promise.all(
          queue.get(run.run_id).result_ids.map((resultId) => core.accuracyResults.get(resultId)),
        );
        if (options.json) stdout.write(`${JSON.stringify(saved, null, 2)}\n`);
        else stdout.write(formatEvalSummary(saved, finished));
        if (finished.type === "run_finished" && finished.state !== "completed") {
          if (finished.error) {
            const endpoints = await core.settings.hubEndpoints().catch(() => undefined);
            stderr.write(`perch eval run: ${explainEvalFailure(finished.error, endpoints?.hf)}\n`);
          }
          exitCode = finished.state === "cancelled" ? 130 : 1;
        }
      } catch (error) {
        const { code, message } = describeError(error, "internal_error");
        stderr.write(`perch eval run: ${message} (${code})\n`);
        exitCode = 1;
      } finally {
        process.removeListener("SIGINT", onSigint);
        await core.close();
      }
      process.exitCode = exitCode;
    });
}

/** Queues the run on the running server and follows it there; answers the exit code. */
async function runOnServer(
  server: AdminClient,
  request: EvalRunAddRequest,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream & { isTTY?: boolean }; json: boolean },
): Promise<number> {
  try {
    const run = await server.request("queueAccuracyRun", { body: request });
    if (!io.json)
      io.stderr.write(`Running on the server at ${server.url} (run ${run.run_id}); Ctrl-C cancels.\n`);
    const cancel = () =>
      void server.request("cancelAccuracyRun", { params: { run_id: run.run_id } }).catch(() => {});
    process.once("SIGINT", cancel);
    try {
      // The run's own id for the model (the name given may be an alias).
      const modelId = run.target.kind === "local" ? run.target.model_id : (request.model_id ?? "");
      const { finished, results } = await followServerEvalRun(server, run.run_id, modelId, io);
      if (io.json) io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      else io.stdout.write(formatEvalSummary(results, finished));
      if (finished.state === "completed") return 0;
      if (finished.error)
        io.stderr.write(`perch eval run: ${explainEvalFailure(finished.error, undefined)}\n`);
      return finished.state === "cancelled" ? 130 : 1;
    } finally {
      process.removeListener("SIGINT", cancel);
    }
  } catch (error) {
    const { code, message } = describeError(error, "internal_error");
    io.stderr.write(`perch eval run: ${message} (${code})\n`);
    return 1;
  }
}
