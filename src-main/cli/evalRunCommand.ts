import path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { accuracyResultSchema, type AccuracyResult } from "../../src-shared/contracts/evals.js";
import { evalBatchSizes, evalRunAddRequestSchema } from "../../src-shared/contracts/evalRuns.js";
import type { SamplingSettings } from "../../src-shared/contracts/settings.js";
import { createCore } from "../core/createCore.js";
import { setRootLogLevel } from "../core/createLogger.js";
import type { PerchConfig } from "../core/PerchConfig.js";
import { PerchError } from "../core/PerchError.js";
import type { DatasetReader } from "../evals/datasets/DatasetReader.js";
import { HubDatasetCache } from "../evals/datasets/HubDatasetCache.js";
import { createBenchmarkSource } from "../evals/queue/createBenchmarkSource.js";
import { EvalQueue } from "../evals/queue/EvalQueue.js";
import type { EvalEngine } from "../evals/queue/executeRun.js";
import type { ResultSink } from "../evals/queue/ResultSink.js";
import { SandboxPool } from "../evals/scoring/SandboxPool.js";
import type { GenerationRequest, GenerationResult } from "../scheduler/GenerationRequest.js";
import { parseWith } from "../server/parseWith.js";
import { ModelSettingsStore } from "../settings/ModelSettingsStore.js";
import { SettingsStore } from "../settings/SettingsStore.js";
import { ResultStore } from "../storage/ResultStore.js";
import { followEvalRun } from "./followEvalRun.js";
import { formatEvalSummary } from "./formatEvalSummary.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";

/** The part of the core an in-process eval run uses (`createCore` returns more). */
export interface EvalCore {
  readonly config: Pick<PerchConfig, "basePath">;
  readonly scheduler: { generate(request: GenerationRequest): Promise<GenerationResult> };
  readonly engine: EvalEngine;
  readonly models?: { resolve(modelId: string): Promise<unknown> };
  /** The core's stores, shared with the server (its catalog summaries see new results). */
  readonly catalog?: {
    accuracyResults: ResultSink;
    modelSettings: { get(modelId: string): Promise<{ sampling?: SamplingSettings }> };
    settings: { hubEndpoints(): Promise<{ hf: string }> };
  };
  close(): Promise<void>;
}

export interface EvalRunCommandDependencies {
  /** Defaults to `createCore`. */
  createCore?: (config: Partial<PerchConfig>) => Promise<EvalCore>;
  /** Defaults to the Hub cache in `<base>/datasets` (downloads on first use). */
  datasets?: (core: EvalCore, options: { offline: boolean }) => Promise<DatasetReader>;
  /** Defaults to the core's accuracy result store (`<base>/benchmarks/accuracy/results`). */
  results?: (core: EvalCore) => ResultSink;
  /** A model's saved sampling (`--sampling model_settings`). Defaults to the core's model settings. */
  modelSampling?: (core: EvalCore, modelId: string) => Promise<SamplingSettings | undefined>;
  /** Defaults to `process.stdout`. */
  stdout?: NodeJS.WritableStream;
  /** Defaults to `process.stderr` (progress and errors). */
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
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
 * measures a model's accuracy in this process (no server needed) through the same queue and
 * runner as the dashboard, with a progress bar; results are stored like a dashboard run's.
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
    .option(
      `--batch-size <n>`,
      `generations in flight: ${evalBatchSizes.join(", ")} (default 1)`,
      parseBatchSize,
    )
    .option("--limit <n>", "questions per benchmark, stratified sample (default: all)", parseCount)
    .addOption(
      new Option("--sampling <profile>", "sampling profile")
        .choices(["deterministic", "model_settings"])
        .default("deterministic"),
    )
    .addOption(new Option("--thinking <mode>", "reasoning").choices(["auto", "on", "off"]).default("auto"))
    .option("--variant <name>", "dataset variant (mbpp: full|sanitized, gsm8k: zero_shot|few_shot, ...)")
    .option("--offline", "use only cached datasets; never download")
    .option("--json", "print the stored results as JSON instead of a summary")
    .action(async (options: EvalRunOptions) => {
      const stdout = deps.stdout ?? process.stdout;
      const stderr = deps.stderr ?? process.stderr;
      setRootLogLevel("warn");
      let request;
      try {
        request = parseWith(
          evalRunAddRequestSchema,
          {
            model_id: options.model,
            benchmarks: options.benchmark,
            ...(options.batchSize ? { batch_size: options.batchSize } : {}),
            ...(options.limit ? { sample_size: options.limit } : {}),
            sampling_profile: options.sampling,
            thinking: options.thinking,
            ...(options.variant
              ? { variants: Object.fromEntries(options.benchmark.map((name) => [name, options.variant])) }
              : {}),
          },
          "options",
        );
      } catch (error) {
        stderr.write(`perch eval run: ${(error as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      const core: EvalCore = await (deps.createCore ?? createCore)(configFromOptions(options));
      let sandbox: Promise<SandboxPool> | undefined;
      const saved: AccuracyResult[] = [];
      const store = (deps.results ?? defaultResults)(core);
      const queue = new EvalQueue({
        generate: (generation) => core.scheduler.generate(generation),
        engine: core.engine,
        benchmarks: createBenchmarkSource({
          datasets: await (deps.datasets ?? defaultDatasets)(core, { offline: Boolean(options.offline) }),
          sandbox: () => (sandbox ??= SandboxPool.create()),
        }),
        results: {
          add: async (result) => {
            await store.add(result);
            saved.push(result);
          },
        },
        modelSampling: (modelId) => (deps.modelSampling ?? defaultModelSampling)(core, modelId),
        ...(core.models
          ? { assertModel: async (modelId: string) => void (await core.models!.resolve(modelId)) }
          : {}),
      });
      let exitCode = 0;
      const onSigint = () => void queue.close();
      process.once("SIGINT", onSigint);
      try {
        const run = await queue.add(request);
        const finished = await followEvalRun(queue, run.run_id, stderr, Boolean(options.json));
        if (options.json) stdout.write(`${JSON.stringify(saved, null, 2)}\n`);
        else stdout.write(formatEvalSummary(saved, finished));
        if (finished.type === "run_finished" && finished.state !== "completed") {
          if (finished.error)
            stderr.write(`perch eval run: ${finished.error.message} (${finished.error.code})\n`);
          exitCode = finished.state === "cancelled" ? 130 : 1;
        }
      } catch (error) {
        const code = error instanceof PerchError ? error.code : "internal_error";
        stderr.write(`perch eval run: ${(error as Error).message} (${code})\n`);
        exitCode = 1;
      } finally {
        process.removeListener("SIGINT", onSigint);
        await queue.close();
        if (sandbox) await (await sandbox).close();
        await core.close();
      }
      process.exitCode = exitCode;
    });
}

function defaultResults(core: EvalCore): ResultSink {
  return (
    core.catalog?.accuracyResults ??
    new ResultStore({
      dir: path.join(core.config.basePath, "benchmarks", "accuracy", "results"),
      schema: accuracyResultSchema,
      label: "accuracy result",
    })
  );
}

async function defaultDatasets(core: EvalCore, options: { offline: boolean }): Promise<DatasetReader> {
  const basePath = core.config.basePath;
  const endpoints = await (core.catalog?.settings ?? new SettingsStore({ basePath })).hubEndpoints();
  return new HubDatasetCache({
    dir: path.join(basePath, "datasets"),
    hubUrl: endpoints.hf,
    offline: options.offline,
    accessToken: process.env.HF_TOKEN,
  });
}

async function defaultModelSampling(core: EvalCore, modelId: string): Promise<SamplingSettings | undefined> {
  const store = core.catalog?.modelSettings ?? new ModelSettingsStore({ basePath: core.config.basePath });
  return (await store.get(modelId)).sampling;
}
