import path from "node:path";
import type { z } from "zod";
import { performanceResultSchema } from "../../src-shared/contracts/performance.js";
import { accuracyResultSchema } from "../../src-shared/contracts/accuracy.js";
import type { AccuracyResultCore, PerformanceResultCore } from "../../src-shared/contracts/results.js";
import type { EngineView } from "../server/admin/adminParams.js";
import { ModelProfilesStore } from "../settings/ModelProfilesStore.js";
import { ModelSettingsStore } from "../settings/ModelSettingsStore.js";
import { SettingsStore } from "../settings/SettingsStore.js";
import { HealthRegistry } from "../storage/HealthRegistry.js";
import { ResultStore } from "../storage/ResultStore.js";
import { DownloadManager } from "./downloads/DownloadManager.js";
import { HuggingFaceDownloader } from "./downloads/HuggingFaceDownloader.js";
import { ModelScopeDownloader } from "./downloads/ModelScopeDownloader.js";
import { ModelCatalog } from "./ModelCatalog.js";
import { ModelSummaries } from "./ModelSummaries.js";
import { UpdateChecker } from "./UpdateChecker.js";
import { perchPaths } from "../base/perchPaths.js";

export interface CatalogServicesOptions<
  A extends z.ZodType<AccuracyResultCore>,
  P extends z.ZodType<PerformanceResultCore>,
> {
  /** Base folder (`~/.perch`). */
  basePath: string;
  /** The engine pool (for loaded state, pinning and unloads in the admin routes). */
  engine: EngineView;
  /** Schema of stored accuracy results. Defaults to `accuracyResultSchema` (evals contract). */
  accuracySchema?: A;
  /** Schema of stored performance results. Defaults to `performanceResultSchema` (bench contract). */
  performanceSchema?: P;
  /** Environment for `HF_ENDPOINT`, `MODELSCOPE_ENDPOINT`, `HF_TOKEN`. Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Model folders given on the command line; they win over `settings.json`. Defaults to the settings' folders. */
  modelsDirs?: string[];
}

/**
 * Builds and wires the storage, settings and catalog services over one base folder. The result
 * also carries the exact deps of each admin route registration function.
 */
export function createCatalogServices<
  A extends z.ZodType<AccuracyResultCore> = typeof accuracyResultSchema,
  P extends z.ZodType<PerformanceResultCore> = typeof performanceResultSchema,
>(options: CatalogServicesOptions<A, P>) {
  const basePath = path.resolve(options.basePath);
  const env = options.env ?? process.env;
  const health = new HealthRegistry();
  const settings = new SettingsStore({ basePath, health, env, modelsDirsOverride: options.modelsDirs });
  const modelSettings = new ModelSettingsStore({ basePath, health });
  const profiles = new ModelProfilesStore({ basePath, health });
  const catalog = new ModelCatalog({
    basePath,
    modelsDirs: () =>
      options.modelsDirs?.length ? Promise.resolve(options.modelsDirs) : settings.modelsDirs(),
    settings: modelSettings,
    health,
  });
  const accuracyResults = new ResultStore({
    dir: perchPaths(basePath).accuracyResults,
    schema: (options.accuracySchema ?? accuracyResultSchema) as A,
    label: "accuracy result",
    health,
  });
  const performanceResults = new ResultStore({
    dir: perchPaths(basePath).performanceResults,
    schema: (options.performanceSchema ?? performanceResultSchema) as P,
    label: "performance result",
    health,
  });
  const summaries = new ModelSummaries({ accuracy: accuracyResults, performance: performanceResults });
  const downloaders = {
    hf: new HuggingFaceDownloader({
      endpoint: async () => (await settings.hubEndpoints()).hf,
      accessToken: async () => (await settings.hubEndpoints()).hfToken,
    }),
    modelscope: new ModelScopeDownloader({
      endpoint: async () => (await settings.hubEndpoints()).modelscope,
    }),
  };
  const downloads = new DownloadManager({
    catalog,
    downloaders,
    targetDir: async () => (options.modelsDirs?.length ? options.modelsDirs : await settings.modelsDirs())[0],
  });
  const updates = new UpdateChecker({ catalog, downloaders });
  const engine = options.engine;
  return {
    health,
    settings,
    modelSettings,
    profiles,
    catalog,
    accuracyResults,
    performanceResults,
    summaries,
    downloads,
    updates,
    /** Deps of each `register*Routes` function, ready to pass. */
    routes: {
      models: { catalog, modelSettings, profiles, settings, summaries, updates, engine },
      settings: { settings, modelSettings, profiles, catalog },
      results: { accuracyResults, performanceResults },
      health: { health },
      downloads: { downloads },
    },
  };
}

export type CatalogServices = ReturnType<typeof createCatalogServices>;
