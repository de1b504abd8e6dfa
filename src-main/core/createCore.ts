import fs from "node:fs";
import path from "node:path";
import { EnginePool } from "../engine/EnginePool.js";
import type { ResolvedModel } from "../engine/LoadedModel.js";
import { createLlamaProvider } from "../engine/createLlamaProvider.js";
import { ChatService } from "../chat/ChatService.js";
import { ConversationStore } from "../chat/ConversationStore.js";
import { createEvalQueue, type EvalDatasetOptions } from "../evals/queue/createEvalQueue.js";
import type { EvalQueue } from "../evals/queue/EvalQueue.js";
import { createPerfService, type PerfService } from "../perf/createPerfService.js";
import { Scheduler } from "../scheduler/Scheduler.js";
import { settingsToConfig } from "./settingsToConfig.js";
import { removeStaleTempFiles } from "../storage/removeStaleTempFiles.js";
import { defaultBasePath, defaultThreads, resolveConfig, type PerchConfig } from "../settings/PerchConfig.js";
import { resolveModelsDirs } from "../base/resolveModelsDirs.js";
import { errorMessage } from "../base/describeError.js";
import { PerchError } from "../base/PerchError.js";
import { createLogger } from "../base/createLogger.js";
import { perchPaths } from "../base/perchPaths.js";
import { createStores, type Stores } from "./createStores.js";
import { ensureInstanceId } from "../settings/instanceId.js";
import { modelFileOf } from "../catalog/modelFileOf.js";

const log = createLogger("core");

/**
 * Every service of Perch, wired once; the CLI, the Electron shell and the HTTP server (through
 * `buildServer`) all use this. The stores (settings, catalog, results, downloads, ...) are
 * `createStores`'s, spread in.
 */
export interface Core extends Stores {
  readonly config: PerchConfig;
  readonly engine: EnginePool;
  readonly scheduler: Scheduler;
  readonly perf: PerfService;
  readonly evals: EvalQueue;
  /** The dashboard chat: conversations under `<base>/conversations` and their replies. */
  readonly chat: ChatService;
  /** Shortcut over the catalog: the servable (present) models and the id resolver. */
  readonly models: {
    list(): Promise<{ id: string; path: string; created: number }[]>;
    resolve(modelId: string): Promise<ResolvedModel>;
  };
  /** Model folders in effect (command line, else settings.json, else `<base>/models`). */
  readonly modelsDirs: string[];
  /** This base path's random id (`<base>/instance_id`), shown on `GET /health`. */
  readonly instanceId: string;
  close(): Promise<void>;
}

/** What a caller of `createCore` may set beyond the config. */
export interface CoreOptions {
  /** Where eval runs read datasets (`perch eval run --dataset/--offline`). Defaults to the Hub cache, online. */
  evalDatasets?: EvalDatasetOptions;
  /** Environment for hub endpoints and `HF_TOKEN`. Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Runs once the settings store exists and before settings.json is read for the config (the
   * app moves values an earlier version kept elsewhere into it). Defaults to none.
   */
  migrateSettings?: (settings: Stores["settings"]) => Promise<unknown>;
}

/**
 * Builds the core: the one place Perch's services are built. Settings come from
 * `<base>/settings.json`; whatever the caller passes (command line flags, the app's preferences)
 * wins over them.
 */
export async function createCore(
  overrides: Partial<PerchConfig> = {},
  options: CoreOptions = {},
): Promise<Core> {
  const basePath = overrides.basePath ? path.resolve(overrides.basePath) : defaultBasePath();
  const env = options.env ?? process.env;
  const instanceId = prepareBaseFolder(basePath);

  const stores = createStores({ basePath, modelsDirs: overrides.modelsDirs, env });
  await options.migrateSettings?.(stores.settings);
  // An unreadable settings.json throws here (SettingsUnreadableError): it holds the API key, so
  // Perch does not start rather than start open.
  const stored = await stores.settings.get();
  const config = resolveConfig({ ...settingsToConfig(stored), ...stripUndefined(overrides), basePath });
  stores.settings.markStarted(stored, {
    apiKeyInEffect: Boolean(config.apiKey),
    threads: config.threads,
    defaultThreads: defaultThreads(),
  });
  // Read now, not on first use, so a corrupt file is moved aside and shows in the health answer
  // from the start instead of after the first request that happens to touch it.
  await Promise.all([stores.modelSettings.all(), stores.profiles.listTemplates()]);
  const paths = perchPaths(basePath);
  void removeStaleTempFiles([basePath, paths.accuracyResults, paths.performanceResults, paths.conversations])
    .then(
      (removed) => removed.length > 0 && log.info({ removed: removed.length }, "removed stale temp files"),
    )
    .catch((error: Error) => log.warn({ err: error.message }, "could not clean stale temp files"));
  const modelsDirs = resolveModelsDirs(basePath, config.modelsDirs);
  for (const dir of modelsDirs) fs.mkdirSync(dir, { recursive: true });

  const engine = new EnginePool({
    getLlama: createLlamaProvider({ gpu: config.gpu }),
    resolveModel: (modelId) => stores.catalog.resolveModel(modelId),
    canonicalId: (name) => stores.catalog.canonicalId(name),
    threads: config.threads,
    defaultTtlSeconds: stored.default_ttl_seconds,
    ...(stored.memory_budget_bytes ? { memoryBudgetBytes: stored.memory_budget_bytes } : {}),
  });
  // A re-downloaded model must not go on answering (and being benchmarked) with its old weights.
  stores.downloads.onModelDownloaded((modelId) => {
    engine
      .retire(modelId)
      .catch((error: unknown) =>
        log.warn({ modelId, err: errorMessage(error) }, "unload after download failed"),
      );
  });
  // The file a model holds when a benchmark of it starts, recorded on its results.
  const modelFile = async (modelId: string) => modelFileOf(await stores.catalog.get(modelId));
  const scheduler = new Scheduler({
    engine,
    promptCache: { dir: paths.promptCache, health: stores.health },
    // A diagnostic switch (README, concurrent decoding): decode every waiting sequence together.
    ...(env.PERCH_DECODE_SHAPING === "off" ? { decodeShaping: "off" as const } : {}),
    // The same for the thread count of small decodes: every decode on the configured threads.
    ...(env.PERCH_DECODE_THREADS === "off" ? { decodeThreads: "off" as const } : {}),
  });
  const perf = createPerfService({
    basePath,
    engine,
    generate: (request) => scheduler.generate(request),
    resolveModel: (modelId) => stores.catalog.resolveModel(modelId),
    canonicalId: (name) => stores.catalog.canonicalId(name),
    requestCounts: (modelId) => {
      const model = scheduler.stats().models.find((entry) => entry.modelId === modelId);
      if (!model) return { finished: 0, inFlight: 0 };
      const { completed, cancelled, rejected, failed } = model.requests;
      return {
        finished: completed + cancelled + rejected + failed,
        inFlight: model.activeSequences + model.queueDepth,
      };
    },
    store: stores.performanceResults,
    getSettings: () => stores.settings.get(),
    modelFile,
  });
  const models: Core["models"] = {
    list: async () =>
      (await stores.catalog.list())
        .filter((entry) => !entry.missing)
        .map((entry) => ({
          id: entry.id,
          path: entry.path,
          created: Math.floor(Date.parse(entry.discovered_at) / 1000),
        })),
    resolve: (modelId) => stores.catalog.resolveModel(modelId),
  };
  const evals = createEvalQueue({
    generate: (request) => scheduler.generate(request),
    engine,
    resolveModel: models.resolve,
    canonicalId: (name) => stores.catalog.canonicalId(name),
    results: stores.accuracyResults,
    modelSampling: async (modelId) => (await stores.modelSettings.get(modelId)).sampling,
    modelFile,
    settings: stores.settings,
    datasetsDir: paths.datasets,
    journalDir: path.join(path.dirname(paths.accuracyResults), "journal"),
    hubToken: env.HF_TOKEN,
    health: stores.health,
    datasets: options.evalDatasets,
  });
  const chat = new ChatService({
    store: new ConversationStore({ dir: paths.conversations, health: stores.health }),
    generate: (request) => scheduler.generate(request),
    checkModel: (modelId) => stores.catalog.resolveModel(modelId),
  });
  log.info({ basePath, modelsDirs }, "core ready");

  return {
    ...stores,
    config,
    instanceId,
    engine,
    scheduler,
    perf,
    modelsDirs,
    models,
    evals: evals.queue,
    chat,
    async close() {
      // A download cut by the exit would leave its .part.lock for the next pull to wait out.
      await stores.downloads.close();
      // Before the engine goes: a stopped reply is saved, then its model is unloaded.
      await chat.close();
      await evals.close();
      await engine.unloadAll();
    },
  };
}

/** The nearest of `folder` and its parents that exists and is not a folder, if any. */
function fileInTheWay(folder: string): string | undefined {
  const wanted = path.resolve(folder);
  for (let current = wanted; ; current = path.dirname(current)) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(current);
    } catch {
      // Missing, or under a file (ENOTDIR): look at its parent.
    }
    if (stat && !stat.isDirectory()) return current;
    if (stat || path.dirname(current) === current) return undefined;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Makes the base folder's logs folder and instance id. A folder Perch cannot write is the user's
 * to fix (a read-only mount, another user's folder): a `storage_error` naming it, not a stack.
 */
function prepareBaseFolder(basePath: string): string {
  try {
    fs.mkdirSync(perchPaths(basePath).logs, { recursive: true });
    return ensureInstanceId(basePath);
  } catch (error) {
    if (error instanceof PerchError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // A file where a folder belongs (the base itself, or <base>/logs) is not a permissions problem.
    const inTheWay =
      code === "ENOTDIR" || code === "EEXIST" ? fileInTheWay(perchPaths(basePath).logs) : undefined;
    if (inTheWay === path.resolve(basePath) || (inTheWay === undefined && code === "ENOTDIR")) {
      throw new PerchError(
        "storage_error",
        `Perch will not start: its base folder ${basePath} is not a folder (${errorMessage(error)}). Give it a folder (--base-path DIR or PERCH_HOME).`,
      );
    }
    if (inTheWay) {
      throw new PerchError(
        "storage_error",
        `Perch will not start: ${inTheWay} is a file, where Perch keeps a folder. Move it away (or delete it), then start again.`,
      );
    }
    throw new PerchError(
      "storage_error",
      `Perch cannot write its folder ${basePath} (${errorMessage(error)}): give it a folder it can write (--base-path DIR or PERCH_HOME), or fix that folder's permissions.`,
    );
  }
}
