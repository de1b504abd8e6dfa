import fs from "node:fs";
import path from "node:path";
import { EnginePool } from "../engine/EnginePool.js";
import { createLlamaProvider } from "../engine/createLlamaProvider.js";
import { Scheduler } from "../scheduler/Scheduler.js";
import { resolveConfig, resolveModelsDirs, type PerchConfig } from "./PerchConfig.js";
import { createLogger } from "./createLogger.js";
import { ModelDirectory } from "./ModelDirectory.js";

const log = createLogger("core");

/** Every service of Perch, wired once; the CLI and the Electron shell both use this. */
export interface Core {
  readonly config: PerchConfig;
  readonly engine: EnginePool;
  readonly scheduler: Scheduler;
  readonly models: ModelDirectory;
  close(): Promise<void>;
}

export async function createCore(partial: Partial<PerchConfig> = {}): Promise<Core> {
  const config = resolveConfig(partial);
  fs.mkdirSync(config.basePath, { recursive: true });
  for (const dir of resolveModelsDirs(config.basePath, config.modelsDirs))
    fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(path.join(config.basePath, "logs"), { recursive: true });

  const models = new ModelDirectory(resolveModelsDirs(config.basePath, config.modelsDirs));
  const engine = new EnginePool({
    getLlama: createLlamaProvider({ gpu: config.gpu }),
    resolveModel: (modelId) => models.resolve(modelId),
    threads: config.threads,
  });
  const scheduler = new Scheduler({ engine });
  log.info({ basePath: config.basePath }, "core ready");

  return {
    config,
    engine,
    scheduler,
    models,
    async close() {
      await engine.unloadAll();
    },
  };
}
