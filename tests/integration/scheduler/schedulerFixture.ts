import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { EnginePool, type EnginePoolOptions } from "../../../src-main/engine/EnginePool.js";
import { createLlamaProvider } from "../../../src-main/engine/createLlamaProvider.js";
import type { GenerationRequest } from "../../../src-main/scheduler/GenerationRequest.js";
import { Scheduler, type SchedulerOptions } from "../../../src-main/scheduler/Scheduler.js";
import { ensureTestModels } from "../../helpers/testModels.js";

/** Model ids of the fixture: each maps to the test model (or the draft model) with its own settings. */
export type FixtureModels = Record<string, { file: "main" | "draft"; settings: ModelSettings }>;

export interface SchedulerFixture {
  engine: EnginePool;
  scheduler: Scheduler;
  paths: { main: string; draft: string };
  close: () => Promise<void>;
}

const getLlama = createLlamaProvider({ gpu: false });

/** A real engine pool over the generated test models; one context per model id (1 thread unless set). */
export async function createSchedulerFixture(
  models: FixtureModels,
  options: Omit<SchedulerOptions, "engine"> = {},
  pool: Partial<Pick<EnginePoolOptions, "memoryBudgetBytes" | "threads">> = {},
): Promise<SchedulerFixture> {
  const paths = await ensureTestModels();
  const engine = new EnginePool({
    getLlama,
    resolveModel: async (id) => {
      const model = models[id];
      if (!model) throw new PerchError("model_not_found", `No model '${id}'`);
      return { id, path: paths[model.file], settings: model.settings };
    },
    threads: 1,
    defaultTtlSeconds: 0,
    ...pool,
  });
  const scheduler = new Scheduler({ engine, ...options });
  return { engine, scheduler, paths, close: () => engine.unloadAll() };
}

/** A greedy request with defaults filled in. */
export function greedyRequest(
  requestId: string,
  modelId: string,
  prompt: GenerationRequest["prompt"],
  extra: Partial<GenerationRequest> = {},
): GenerationRequest {
  return { requestId, modelId, prompt, sampling: { temperature: 0 }, ...extra };
}

/** Resolves once `predicate` holds, checking every few milliseconds (not a timing assertion). */
export async function waitFor(predicate: () => boolean, what: string, limitMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > limitMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
