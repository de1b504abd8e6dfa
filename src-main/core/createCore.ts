import fs from "node:fs";
import path from "node:path";
import { createCatalogServices, type CatalogServices } from "../catalog/createCatalogServices.js";
import { EnginePool } from "../engine/EnginePool.js";
import type { ResolvedModel } from "../engine/LoadedModel.js";
import { createLlamaProvider } from "../engine/createLlamaProvider.js";
import { ChatService } from "../chat/ChatService.js";
import { ConversationStore } from "../chat/ConversationStore.js";
import { createEvalQueue } from "../evals/queue/createEvalQueue.js";
import type { EvalQueue } from "../evals/queue/EvalQueue.js";
import { createPerfService, type PerfService } from "../perf/createPerfService.js";
import { Scheduler } from "../scheduler/Scheduler.js";
import { settingsToConfig } from "../settings/settingsToConfig.js";
import { removeStaleTempFiles } from "../storage/removeStaleTempFiles.js";
import {
  defaultBasePath,
  defaultThreads,
  resolveConfig,
  resolveModelsDirs,
  type PerchConfig,
} from "./PerchConfig.js";
import { createLogger } from "../base/createLogger.js";
import { perchPaths } from "../base/perchPaths.js";

const log = createLogger("core");

/** Every service of Perch, wired once; the CLI and the Electron shell both use this. */
export interface Core {
  readonly config: PerchConfig;
  readonly engine: EnginePool;
  readonly scheduler: Scheduler;
  readonly catalog: CatalogServices;
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
  close(): Promise<void>;
}

/**
 * Builds the core. Settings come from `<base>/settings.json`; whatever the caller passes (command
 * line flags, the app's preferences) wins over them.
 */
export async function createCore(overrides: Partial<PerchConfig> = {}): Promise<Core> {
  const basePath = overrides.basePath ? path.resolve(overrides.basePath) : defaultBasePath();
  fs.mkdirSync(perchPaths(basePath).logs, { recursive: true });

  const engineRef: { current?: EnginePool } = {};
  // The engine resolves ids through the catalog and the catalog's routes show the engine's state:
  // the view below defers to the pool built right after.
  const catalog = createCatalogServices({
    basePath,
    modelsDirs: overrides.modelsDirs,
    engine: {
      list: () => engineRef.current?.list() ?? [],
      load: (id) => engineRef.current?.load(id) ?? Promise.resolve(),
      unload: (id) => engineRef.current?.unload(id) ?? Promise.resolve(false),
      applySettings: (id, settings) => engineRef.current?.applySettings(id, settings),
    },
  });
  // An unreadable settings.json throws here (SettingsUnreadableError): it holds the API key, so
  // Perch does not start rather than start open.
  const stored = await catalog.settings.get();
  const config = resolveConfig({ ...settingsToConfig(stored), ...stripUndefined(overrides), basePath });
  catalog.settings.markStarted(stored, {
    apiKeyInEffect: Boolean(config.apiKey),
    threads: config.threads,
    defaultThreads: defaultThreads(),
  });
  // Read now, not on first use, so a corrupt file is moved aside and shows in the health answer
  // from the start instead of after the first request that happens to touch it.
  await Promise.all([catalog.modelSettings.all(), catalog.profiles.listTemplates()]);
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
    resolveModel: (modelId) => catalog.catalog.resolveModel(modelId),
    threads: config.threads,
    defaultTtlSeconds: stored.default_ttl_seconds,
    ...(stored.memory_budget_bytes ? { memoryBudgetBytes: stored.memory_budget_bytes } : {}),
  });
  engineRef.current = engine;
  const scheduler = new Scheduler({ engine });
  const perf = createPerfService({
    basePath,
    engine,
    generate: (request) => scheduler.generate(request),
    resolveModel: (modelId) => catalog.catalog.resolveModel(modelId),
    store: catalog.performanceResults,
    getSettings: () => catalog.settings.get(),
  });
  const models: Core["models"] = {
    list: async () =>
      (await catalog.catalog.list())
        .filter((entry) => !entry.missing)
        .map((entry) => ({
          id: entry.id,
          path: entry.path,
          created: Math.floor(Date.parse(entry.discovered_at) / 1000),
        })),
    resolve: (modelId) => catalog.catalog.resolveModel(modelId),
  };
  const evals = createEvalQueue({ config, scheduler, engine, models, catalog });
  const chat = new ChatService({
    store: new ConversationStore({ dir: paths.conversations, health: catalog.health }),
    generate: (request) => scheduler.generate(request),
  });
  log.info({ basePath, modelsDirs }, "core ready");

  return {
    config,
    engine,
    scheduler,
    catalog,
    perf,
    modelsDirs,
    models,
    evals: evals.queue,
    chat,
    async close() {
      chat.close();
      await evals.close();
      await engine.unloadAll();
    },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
