import { GgmlType, type LlamaContext } from "node-llama-cpp";
import type { EnginePool } from "../engine/EnginePool.js";
import type { LoadedModel } from "../engine/LoadedModel.js";
import { ModelLane } from "./ModelLane.js";
import type { LaneSpeculation } from "./LaneSpeculation.js";
import { createDraftSpeculation } from "./createDraftSpeculation.js";
import { createLookupSessionFactory } from "./speculation/createLookupSessionFactory.js";
import type { PromptCache } from "./promptCache/PromptCache.js";
import { DecodeShaper, type DecodeShaperOptions } from "./DecodeShaper.js";
import { DecodeThreads, type DecodeThreadsOptions } from "./DecodeThreads.js";
import { openPromptCache, type PromptCacheOptions } from "./promptCache/openPromptCache.js";

export interface ModelLaneOptions {
  /** Draft tokens below this confidence end a draft run. Defaults to node-llama-cpp's `0.6`. */
  draftMinConfidence?: number;
  /** Where evicted sequence states are kept; without a folder, only idle sequences cache prefixes. */
  promptCache?: PromptCacheOptions;
  /**
   * Whether concurrent one-token decodes may run in measured chunks instead of all together
   * (`DecodeShaper`; default on). `off` decodes every waiting sequence together, as before.
   */
  decodeShaping?: "off" | DecodeShaperOptions;
  /**
   * Whether small decodes may run on one thread where that measured faster than the configured
   * count (`DecodeThreads`; default on). `off` runs every decode on the configured threads.
   */
  decodeThreads?: "off" | DecodeThreadsOptions;
}

/** Sequences per context when a model sets none (`max_concurrent_requests`). */
export const defaultConcurrentRequests = 8;
/** Context size when a model sets none: its training context, capped. */
export const defaultContextSizeCap = 8192;

/**
 * Builds a model's lane: one context with `max_concurrent_requests` sequences, and the
 * speculation factory its settings ask for (a draft model is acquired from the pool, like any
 * model, and held until this lane goes away).
 */
export async function createModelLane(
  loaded: LoadedModel,
  engine: EnginePool,
  options: ModelLaneOptions = {},
): Promise<ModelLane> {
  const settings = loaded.settings;
  const contextSize = settings.context_size ?? Math.min(loaded.model.trainContextSize, defaultContextSizeCap);
  const kvType =
    settings.kv_cache_type && settings.kv_cache_type !== "f16"
      ? settings.kv_cache_type.toUpperCase()
      : undefined;
  const sequences = settings.max_concurrent_requests ?? defaultConcurrentRequests;
  // The KV cache and compute buffers count against the memory budget like the weights (a long
  // context can take more than the model): idle models make room first, or the load is refused.
  const cacheType = kvType ? GgmlType[kvType as keyof typeof GgmlType] : undefined;
  const { cpuRam, gpuVram } = await loaded.model.fileInsights.estimateContextResourceRequirementsV2({
    contextSize,
    sequences,
    modelGpuLayers: loaded.model.gpuLayers,
    ...(cacheType !== undefined ? { kvCacheKeyType: cacheType, kvCacheValueType: cacheType } : {}),
  });
  const releaseMemory = await engine.reserve(loaded.id, cpuRam + gpuVram, "the generation context");
  const context = await loaded.model
    .createContext({
      contextSize,
      sequences,
      // The library's default thread count is ~50x slower on small shared machines; the pool decides.
      threads: loaded.threads,
      ...(kvType
        ? { experimentalKvCacheKeyType: kvType as "Q8_0", experimentalKvCacheValueType: kvType as "Q8_0" }
        : {}),
    })
    .catch((error: unknown) => {
      releaseMemory();
      throw error;
    });
  const decodeShaper = options.decodeShaping === "off" ? undefined : new DecodeShaper(options.decodeShaping);
  if (decodeShaper) installDecodeShaper(context, decodeShaper);
  const decodeThreads =
    options.decodeThreads === "off"
      ? undefined
      : new DecodeThreads(context.currentThreads, options.decodeThreads);
  if (decodeThreads) installDecodeThreads(context, decodeThreads);
  let promptCache: PromptCache | undefined;
  try {
    promptCache = await openPromptCache(loaded, context, options.promptCache ?? {});
    const speculation = await createSpeculation(loaded, engine, contextSize, options);
    const lane = new ModelLane({
      loaded,
      context,
      promptCache,
      decodeShaper,
      decodeThreads,
      releaseMemory,
      ...speculation,
    });
    speculation.bindLane?.(lane);
    return lane;
  } catch (error) {
    // Releases the cache folder's lock, so the next load of this model can use it.
    await promptCache?.close([]);
    await context.dispose();
    releaseMemory();
    throw error;
  }
}

async function createSpeculation(
  loaded: LoadedModel,
  engine: EnginePool,
  contextSize: number,
  options: ModelLaneOptions,
): Promise<LaneSpeculation> {
  const speculative = loaded.settings.speculative ?? { mode: "off" };
  const mode = speculative.mode;
  switch (mode) {
    case "off":
      return {};
    case "lookup":
      return {
        factory: createLookupSessionFactory({
          maxTokens: speculative.maxDraftTokens,
          minTokens: speculative.minDraftTokens,
        }),
      };
    case "draft":
      return createDraftSpeculation(loaded, engine, contextSize, speculative, options.draftMinConfidence);
    default:
      mode satisfies never;
      return {};
  }
}

/** Hands the shaper to the context's dispatch loop (our node-llama-cpp patch reads it there). */
function installDecodeShaper(context: LlamaContext, shaper: DecodeShaper): void {
  (context as unknown as { _perchDecodeShaper?: DecodeShaper })._perchDecodeShaper = shaper;
}

/** Hands the thread chooser to the context's dispatch loop (our node-llama-cpp patch reads it there). */
function installDecodeThreads(context: LlamaContext, chooser: DecodeThreads): void {
  (context as unknown as { _perchDecodeThreads?: DecodeThreads })._perchDecodeThreads = chooser;
}
