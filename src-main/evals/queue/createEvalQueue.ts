import path from "node:path";
import type { BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import type { ModelFile } from "../../../src-shared/contracts/results.js";
import type { SamplingSettings } from "../../../src-shared/contracts/settings.js";
import type { GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";
import type { HealthRegistry } from "../../storage/HealthRegistry.js";
import { resolveBenchmark } from "../benchmarks/resolveBenchmark.js";
import type { DatasetReader } from "../datasets/DatasetReader.js";
import { HubDatasetCache } from "../datasets/HubDatasetCache.js";
import { LocalFileDatasetReader } from "../datasets/LocalFileDatasetReader.js";
import { requirePython, type PythonSettings } from "../scoring/requirePython.js";
import { SandboxPool } from "../scoring/SandboxPool.js";
import { createBenchmarkSource } from "./createBenchmarkSource.js";
import { EvalJournal } from "./EvalJournal.js";
import { EvalQueue, type EvalQueueOptions } from "./EvalQueue.js";
import type { EvalEngine } from "./executeRun.js";
import type { ResultSink } from "./ResultSink.js";

/** Where eval runs read their benchmark data. */
export interface EvalDatasetOptions {
  /** One benchmark's dataset read from this file (`--dataset`) instead of the Hub. Defaults to unset. */
  file?: string;
  /** Use cached datasets only; never download. Defaults to `false`. */
  offline?: boolean;
}

/** Everything the eval queue is wired to; `createCore` passes each one. */
export interface EvalQueueDependencies {
  /** The scheduler's `generate`. */
  generate(request: GenerationRequest): Promise<GenerationResult>;
  /** Loads models and suspends their idle TTL while a run uses them. */
  engine: EvalEngine;
  /** Lets `add` refuse an unknown model at once. Defaults to no check. */
  resolveModel?: (modelId: string) => Promise<unknown>;
  /** The id behind a client's name for a model (`ModelCatalog.canonicalId`). Defaults to the name as given. */
  canonicalId?: (name: string) => Promise<string>;
  /** Where finished results are stored (the catalog summaries read the same store). */
  results: ResultSink;
  /** A model's saved sampling, for the `model_settings` profile. */
  modelSampling: (modelId: string) => Promise<SamplingSettings | undefined>;
  /** The file a model holds now, recorded on its results. Defaults to none recorded. */
  modelFile?: (modelId: string) => Promise<ModelFile | undefined>;
  /** The Hub endpoint and token, and the remembered Python interpreter (settings.json). */
  settings: { hubEndpoints(): Promise<{ hf: string; hfToken?: string }> } & PythonSettings;
  /** Folder of the Hub dataset cache (`<base>/datasets`). */
  datasetsDir: string;
  /**
   * Where the queue and the running benchmark's answers are journaled (`EvalJournal`), so a crash
   * leaves them as a cancelled partial result and cancelled runs; what a crashed process left
   * there is recorded on creation. Perch uses `<base>/benchmarks/accuracy/journal`. Defaults to
   * no journal.
   */
  journalDir?: string;
  /** Sent to the Hub for gated datasets when the settings have no token (`HF_TOKEN`). Defaults to none. */
  hubToken?: string;
  /** Where the scoring pool reports checks it could not score. Defaults to nowhere. */
  health?: HealthRegistry;
  /** Dataset source overrides (`perch eval run --dataset/--offline`). Defaults to the Hub cache, online. */
  datasets?: EvalDatasetOptions | DatasetReader;
  /** Anything else of the queue (limits, runner options, an external target factory). Defaults to `{}`. */
  queue?: Partial<EvalQueueOptions>;
}

/**
 * Wires the eval queue: scheduler, engine (TTL suspension), result store, model settings, the
 * dataset cache and a code-check pool started on the first code benchmark.
 * `close` cancels every run, then stops the pool.
 */
export function createEvalQueue(deps: EvalQueueDependencies): { queue: EvalQueue; close(): Promise<void> } {
  let sandbox: Promise<SandboxPool> | undefined;
  let pool: SandboxPool | undefined;
  const removeHealth = deps.health?.addProvider(() => pool?.healthWarnings() ?? []);
  const startPool = () =>
    requirePython(deps.settings)
      .then((python) => SandboxPool.create({ python: python.executable }))
      .then((created) => {
        pool = created;
        return created;
      });
  const resolveModel = deps.resolveModel;
  const journal = deps.journalDir ? new EvalJournal(deps.journalDir) : undefined;
  // Read before this process writes anything there.
  const interrupted = journal?.takeInterrupted();
  const queue = new EvalQueue({
    generate: (request) => deps.generate(request),
    engine: deps.engine,
    benchmarks: createBenchmarkSource({
      datasets: datasetReader(deps),
      // The Python remembered in settings.json (found and remembered on first use).
      sandbox: () => (sandbox ??= startPool()),
    }),
    results: deps.results,
    modelSampling: deps.modelSampling,
    ...(deps.modelFile ? { modelFile: deps.modelFile } : {}),
    // A code benchmark without Python is refused with how to install it, before the run starts.
    assertBenchmarks: async (names) => {
      if (names.some((name) => resolveBenchmark(name as BenchmarkName).needsSandbox)) {
        await requirePython(deps.settings);
      }
    },
    ...(deps.canonicalId ? { canonicalId: deps.canonicalId } : {}),
    ...(resolveModel ? { assertModel: async (modelId: string) => void (await resolveModel(modelId)) } : {}),
    ...(journal ? { journal } : {}),
    ...deps.queue,
  });
  const recorded = interrupted ? queue.recordInterrupted(interrupted) : Promise.resolve();
  return {
    queue,
    async close() {
      await recorded;
      await queue.close();
      await journal?.flush();
      removeHealth?.();
      if (sandbox) await (await sandbox.catch(() => undefined))?.close();
    },
  };
}

function datasetReader(deps: EvalQueueDependencies): DatasetReader {
  const datasets = deps.datasets ?? {};
  if ("rows" in datasets) return datasets;
  if (datasets.file) return new LocalFileDatasetReader(path.resolve(datasets.file));
  return lazyHubCache(deps, Boolean(datasets.offline));
}

/** The Hub cache, built on first use (the endpoint comes from settings.json, read asynchronously). */
function lazyHubCache(deps: EvalQueueDependencies, offline: boolean): DatasetReader {
  let cache: Promise<HubDatasetCache> | undefined;
  const open = async () =>
    new HubDatasetCache({
      dir: deps.datasetsDir,
      hubUrl: (await deps.settings.hubEndpoints()).hf,
      offline,
      // Asked on each download, so a token saved in the settings applies without a restart.
      accessToken: async () => (await deps.settings.hubEndpoints()).hfToken ?? deps.hubToken,
    });
  return {
    rows: async (source, signal, options) => (await (cache ??= open())).rows(source, signal, options),
  };
}
