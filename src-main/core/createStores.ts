import path from "node:path";
import type { z } from "zod";
import { performanceResultSchema } from "../../src-shared/contracts/performance.js";
import { accuracyResultSchema } from "../../src-shared/contracts/accuracy.js";
import type { AccuracyResultCore, PerformanceResultCore } from "../../src-shared/contracts/results.js";
import { DownloadManager } from "../catalog/downloads/DownloadManager.js";
import { HuggingFaceDownloader } from "../catalog/downloads/HuggingFaceDownloader.js";
import { ModelScopeDownloader } from "../catalog/downloads/ModelScopeDownloader.js";
import { ModelCatalog } from "../catalog/ModelCatalog.js";
import { ModelSummaries } from "../catalog/ModelSummaries.js";
import { UpdateChecker } from "../catalog/UpdateChecker.js";
import { ModelProfilesStore } from "../settings/ModelProfilesStore.js";
import { ModelSettingsStore } from "../settings/ModelSettingsStore.js";
import { SettingsStore } from "../settings/SettingsStore.js";
import { HealthRegistry } from "../storage/HealthRegistry.js";
import { ResultStore } from "../storage/ResultStore.js";
import { perchPaths } from "../base/perchPaths.js";
import { logFileProblem } from "../base/createLogger.js";
import { setAsideWarnings } from "../storage/setAsideWarnings.js";

export interface StoresOptions<
  A extends z.ZodType<AccuracyResultCore>,
  P extends z.ZodType<PerformanceResultCore>,
> {
  /** Base folder (`~/.perch`). */
  basePath: string;
  /** Schema of stored accuracy results. Defaults to `accuracyResultSchema` (accuracy contract). */
  accuracySchema?: A;
  /** Schema of stored performance results. Defaults to `performanceResultSchema` (performance contract). */
  performanceSchema?: P;
  /** Environment for `HF_ENDPOINT`, `MODELSCOPE_ENDPOINT`, `HF_TOKEN`. Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Model folders given on the command line; they win over `settings.json`. Defaults to the settings' folders. */
  modelsDirs?: string[];
}

/**
 * The file-backed half of the core: settings, model settings and profiles, the model catalog,
 * the result stores and their summaries, downloads and update checks, all over one base folder
 * and one health registry. Part of the composition root: `createCore` calls it, and tests that
 * need the stores without an engine (the admin route tests) call it too.
 */
export function createStores<
  A extends z.ZodType<AccuracyResultCore> = typeof accuracyResultSchema,
  P extends z.ZodType<PerformanceResultCore> = typeof performanceResultSchema,
>(options: StoresOptions<A, P>) {
  const basePath = path.resolve(options.basePath);
  const env = options.env ?? process.env;
  const health = new HealthRegistry();
  const paths = perchPaths(basePath);
  health.addProvider(() =>
    setAsideWarnings([basePath, paths.accuracyResults, paths.performanceResults, paths.conversations]),
  );
  // The log file is the process's, not this base folder's: reported while it cannot be written.
  health.addProvider(() => {
    const problem = logFileProblem();
    if (!problem) return [];
    return [
      {
        code: "storage_error" as const,
        message:
          `The log file in ${problem.dir} cannot be written since ${problem.since} (${problem.error}); ` +
          `${problem.dropped} log line(s) dropped so far. Perch keeps serving and tries the file again; free space there.`,
        path: problem.dir,
      },
    ];
  });
  const settings = new SettingsStore({ basePath, health, env, modelsDirsOverride: options.modelsDirs });
  const modelSettings = new ModelSettingsStore({ basePath, health });
  const profiles = new ModelProfilesStore({ basePath, health });
  const modelsDirs = async () =>
    options.modelsDirs?.length ? options.modelsDirs : await settings.modelsDirs();
  const catalog = new ModelCatalog({
    basePath,
    modelsDirs,
    settings: modelSettings,
    health,
    foldersAreAView: (options.modelsDirs?.length ?? 0) > 0,
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
    targetDir: async () => (await modelsDirs())[0],
  });
  const updates = new UpdateChecker({ catalog, downloaders });
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
  };
}

/** The stores over the full result schemas (what `createCore` builds). */
export type Stores = ReturnType<
  typeof createStores<typeof accuracyResultSchema, typeof performanceResultSchema>
>;
