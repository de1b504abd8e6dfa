import path from "node:path";
import { accuracyResultSchema, type BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import type { SamplingSettings } from "../../../src-shared/contracts/settings.js";
import type { GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";
import { ModelSettingsStore } from "../../settings/ModelSettingsStore.js";
import { SettingsStore } from "../../settings/SettingsStore.js";
import type { HealthRegistry } from "../../storage/HealthRegistry.js";
import { ResultStore } from "../../storage/ResultStore.js";
import { resolveBenchmark } from "../benchmarks/resolveBenchmark.js";
import type { DatasetReader } from "../datasets/DatasetReader.js";
import { HubDatasetCache } from "../datasets/HubDatasetCache.js";
import { LocalFileDatasetReader } from "../datasets/LocalFileDatasetReader.js";
import { requirePython, type PythonSettings } from "../scoring/requirePython.js";
import { SandboxPool } from "../scoring/SandboxPool.js";
import { createBenchmarkSource } from "./createBenchmarkSource.js";
import { EvalQueue, type EvalQueueOptions } from "./EvalQueue.js";
import type { EvalEngine } from "./executeRun.js";
import type { ResultSink } from "./ResultSink.js";
import { perchPaths } from "../../base/perchPaths.js";

/** The part of the core eval runs use (`Core` from `createCore` has all of it). */
export interface EvalCore {
  readonly config: { basePath: string };
  readonly scheduler: { generate(request: GenerationRequest): Promise<GenerationResult> };
  readonly engine: EvalEngine;
  /** Lets `add` refuse an unknown model at once. */
  readonly models?: { resolve(modelId: string): Promise<unknown> };
  /** The core's stores: results land where the catalog summaries look. */
  readonly catalog?: {
    accuracyResults: ResultSink;
    modelSettings: { get(modelId: string): Promise<{ sampling?: SamplingSettings }> };
    settings: { hubEndpoints(): Promise<{ hf: string; hfToken?: string }> } & PythonSettings;
    /** Where the scoring pool reports checks it could not score. */
    health?: HealthRegistry;
  };
}

export interface CreateEvalQueueOptions {
  /** Defaults to the Hub cache in `<base>/datasets` (downloads on first use). */
  datasets?: DatasetReader;
  /** One benchmark's dataset read from this file (`--dataset`) instead of the Hub. Defaults to unset. */
  datasetFile?: string;
  /** Use cached datasets only. Defaults to `false`. */
  offline?: boolean;
  /** Defaults to the core's accuracy results (else a store in `<base>/benchmarks/accuracy/results`). */
  results?: ResultSink;
  /** Defaults to the core's model settings (else `<base>/model_settings.json`). */
  modelSampling?: (modelId: string) => Promise<SamplingSettings | undefined>;
  /** Anything else of the queue (limits, runner options, an external target factory). Defaults to `{}`. */
  queue?: Partial<EvalQueueOptions>;
}

/**
 * Wires the eval queue to a core: scheduler, engine (TTL suspension), result store, model
 * settings, the dataset cache and a code-check pool started on the first code benchmark.
 * `close` cancels every run, then stops the pool.
 */
export function createEvalQueue(
  core: EvalCore,
  options: CreateEvalQueueOptions = {},
): { queue: EvalQueue; close(): Promise<void> } {
  const basePath = core.config.basePath;
  let sandbox: Promise<SandboxPool> | undefined;
  let pool: SandboxPool | undefined;
  const removeHealth = core.catalog?.health?.addProvider(() => pool?.healthWarnings() ?? []);
  const startPool = () =>
    requirePython(core.catalog?.settings)
      .then((python) => SandboxPool.create({ python: python.executable }))
      .then((created) => {
        pool = created;
        return created;
      });
  const modelSettings = core.catalog?.modelSettings ?? new ModelSettingsStore({ basePath });
  const queue = new EvalQueue({
    generate: (request) => core.scheduler.generate(request),
    engine: core.engine,
    benchmarks: createBenchmarkSource({
      datasets:
        options.datasets ??
        (options.datasetFile
          ? new LocalFileDatasetReader(path.resolve(options.datasetFile))
          : lazyHubCache(core, Boolean(options.offline))),
      // The Python remembered in settings.json (found and remembered on first use).
      sandbox: () => (sandbox ??= startPool()),
    }),
    results:
      options.results ??
      core.catalog?.accuracyResults ??
      new ResultStore({
        dir: perchPaths(basePath).accuracyResults,
        schema: accuracyResultSchema,
        label: "accuracy result",
      }),
    modelSampling: options.modelSampling ?? (async (modelId) => (await modelSettings.get(modelId)).sampling),
    // A code benchmark without Python is refused with how to install it, before the run starts.
    assertBenchmarks: async (names) => {
      if (names.some((name) => resolveBenchmark(name as BenchmarkName).needsSandbox)) {
        await requirePython(core.catalog?.settings);
      }
    },
    ...(core.models
      ? { assertModel: async (modelId: string) => void (await core.models!.resolve(modelId)) }
      : {}),
    ...options.queue,
  });
  return {
    queue,
    async close() {
      await queue.close();
      removeHealth?.();
      if (sandbox) await (await sandbox.catch(() => undefined))?.close();
    },
  };
}

/** The Hub cache, built on first use (the endpoint comes from settings.json, read asynchronously). */
function lazyHubCache(core: EvalCore, offline: boolean): DatasetReader {
  let cache: Promise<HubDatasetCache> | undefined;
  const open = async () => {
    const basePath = core.config.basePath;
    const settings = core.catalog?.settings ?? new SettingsStore({ basePath });
    const endpoints = await settings.hubEndpoints();
    return new HubDatasetCache({
      dir: perchPaths(basePath).datasets,
      hubUrl: endpoints.hf,
      offline,
      // Asked on each download, so a token saved in the settings applies without a restart.
      accessToken: async () => (await settings.hubEndpoints()).hfToken,
    });
  };
  return {
    rows: async (source, signal) => (await (cache ??= open())).rows(source, signal),
  };
}
