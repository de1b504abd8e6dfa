import { PerchError } from "../base/PerchError.js";
import type { EnginePool } from "../engine/EnginePool.js";
import type { LoadedModel } from "../engine/LoadedModel.js";
import type { GenerationRequest, GenerationResult } from "./GenerationRequest.js";
import type { ModelLane } from "./ModelLane.js";
import type { SchedulerStats } from "../../src-shared/contracts/stats.js";
import { createModelLane, type ModelLaneOptions } from "./createModelLane.js";
import { createLogger } from "../base/createLogger.js";
import { errorMessage } from "../base/describeError.js";
import {
  ModelEmbedder,
  type EmbeddingBatch,
  type EmbeddingInput,
  type EmbedOptions,
} from "../engine/ModelEmbedder.js";

const log = createLogger("scheduler");

/** An embedding request: the inputs of one API call, embedded in order. */
export interface EmbeddingRequest extends EmbedOptions {
  modelId: string;
  inputs: readonly EmbeddingInput[];
  /** Requested vector length: refused unless it is the model's own (vectors are not cut). */
  dimensions?: number;
}

export interface EmbeddingResult extends EmbeddingBatch {
  /** Length of every vector. */
  dimensions: number;
}

export interface SchedulerOptions extends ModelLaneOptions {
  engine: EnginePool;
}

/** Rebuilds a lane whose creation failed instead of caching the failure on the model. */
class LaneHolder {
  private promise: Promise<ModelLane> | undefined;
  lane: ModelLane | undefined;
  disposed = false;

  constructor(private readonly create: () => Promise<ModelLane>) {}

  get(): Promise<ModelLane> {
    this.promise ??= this.create().then(
      async (lane) => {
        if (this.disposed) {
          // The model unloaded while its lane was being built.
          await lane.dispose();
          throw new PerchError("generation_failed", "The model was unloaded.");
        }
        this.lane = lane;
        return lane;
      },
      (error: unknown) => {
        this.promise = undefined;
        throw error;
      },
    );
    return this.promise;
  }
}

const attachmentKey = "scheduler.lane";

/**
 * Continuous batching over the engine pool. Per loaded model: one context whose sequences are
 * handed to requests as they free up, a bounded FIFO beyond them (429), per-request sampling,
 * stops, constraints and cancellation, and speculative decoding only where DESIGN.md allows it.
 * The lane lives on the loaded model, so it goes away exactly when the model unloads.
 */
export class Scheduler {
  private readonly engine: EnginePool;
  private readonly laneOptions: ModelLaneOptions;
  private readonly holders = new Set<LaneHolder>();

  constructor(options: SchedulerOptions) {
    const { engine, ...laneOptions } = options;
    this.engine = engine;
    this.laneOptions = laneOptions;
  }

  /**
   * Generates one response, streaming through `request.onText`. Resolves with finish reason
   * `cancelled` (and the partial text) when `request.signal` aborts after the request got a
   * sequence; rejects with `cancelled` when it aborts while queued, `queue_full` (429) when the
   * queue is full, `context_length_exceeded` when the prompt does not fit. A signal aborted with a
   * `PerchError` as its reason (the server shutting down: `server_shutting_down`) rejects with that
   * error instead of cancelling, wherever the request was.
   */
  async generate(request: GenerationRequest): Promise<GenerationResult> {
    const receivedAt = performance.now();
    const requestedAt = Date.now();
    if (request.signal?.aborted)
      throw stoppedWith(request.signal) ?? new PerchError("cancelled", "The request was cancelled.");
    // Held for the whole request: the pool neither evicts nor idles out a model in use.
    const loaded = await this.engine.acquire(request.modelId);
    let result: GenerationResult;
    try {
      const lane = await this.laneOrRetire(loaded, requestedAt);
      // Loading the model and building its context: Ollama's `load_duration`.
      result = await lane.generate(request, { receivedAt, loadedAt: performance.now() });
    } catch (error) {
      throw stoppedWith(request.signal) ?? error;
    } finally {
      this.engine.release(loaded);
    }
    const stopped = result.finishReason === "cancelled" ? stoppedWith(request.signal) : undefined;
    if (stopped) throw stopped;
    return result;
  }

  /**
   * Embeds the inputs on the model's embedding context (created beside its generation context on
   * first use), loading the model if needed; a model serves chat and embeddings alike.
   */
  async embed(request: EmbeddingRequest): Promise<EmbeddingResult> {
    if (request.signal?.aborted)
      throw stoppedWith(request.signal) ?? new PerchError("cancelled", "The request was cancelled.");
    const { modelId, inputs, dimensions, ...options } = request;
    const loaded = await this.engine.acquire(modelId);
    try {
      const embedder = ModelEmbedder.of(loaded, (bytes) =>
        this.engine.reserve(loaded.id, bytes, "the embedding context"),
      );
      if (dimensions !== undefined && dimensions !== embedder.dimensions) {
        throw new PerchError(
          "invalid_request",
          `'${modelId}' embeds into ${embedder.dimensions} dimensions; 'dimensions' ${dimensions} is not supported ` +
            "(omit it or pass the model's size).",
          { param: "dimensions" },
        );
      }
      return { ...(await embedder.embed(inputs, options)), dimensions: embedder.dimensions };
    } catch (error) {
      throw stoppedWith(request.signal) ?? error;
    } finally {
      this.engine.release(loaded);
    }
  }

  /** The prompt tokens of a request as it would be generated (loads the model if needed). */
  async countPromptTokens(request: GenerationRequest): Promise<number> {
    const loaded = await this.engine.acquire(request.modelId);
    try {
      return await (await this.laneFor(loaded)).countPromptTokens(request);
    } finally {
      this.engine.release(loaded);
    }
  }

  /**
   * Loads the model and builds its generation context, as its first request would: an explicit
   * load (the dashboard, `perch load`, Ollama's empty prompt) then shows the context's size and
   * memory at once, and a context that does not fit fails the load, not a later request.
   */
  async prepare(modelId: string): Promise<void> {
    const requestedAt = Date.now();
    const loaded = await this.engine.acquire(modelId);
    try {
      await this.laneOrRetire(loaded, requestedAt);
    } finally {
      this.engine.release(loaded);
    }
  }

  /** Tokens of `text` for a model (loads it if needed), e.g. for usage estimates. */
  async countTokens(modelId: string, text: string): Promise<number> {
    const loaded = await this.engine.acquire(modelId);
    try {
      return loaded.model.tokenize(text).length;
    } finally {
      this.engine.release(loaded);
    }
  }

  stats(): SchedulerStats {
    const models = [...this.holders]
      .map((holder) => holder.lane?.stats())
      .filter((stats) => stats !== undefined)
      .sort((a, b) => a.modelId.localeCompare(b.modelId));
    const sum = (pick: (model: (typeof models)[number]) => number) =>
      models.reduce((total, model) => total + pick(model), 0);
    const lookups = sum((model) => model.promptCache.lookups);
    const hits = sum((model) => model.promptCache.slotHits + model.promptCache.tierHits);
    return {
      models,
      totals: {
        activeSequences: sum((model) => model.activeSequences),
        queueDepth: sum((model) => model.queueDepth),
        generatedTokensLastMinute: sum((model) => model.generatedTokensLastMinute),
        tokensPerSecond: sum((model) => model.tokensPerSecond),
        promptCache: {
          lookups,
          hits,
          hitRate: lookups > 0 ? hits / lookups : 0,
          reusedTokens: sum((model) => model.promptCache.reusedTokens),
          ramBytes: sum((model) => model.promptCache.ram.bytes),
          diskBytes: sum((model) => model.promptCache.disk.bytes),
        },
      },
    };
  }

  /**
   * The model's lane; when it cannot be built (its context does not fit the memory budget, or
   * llama.cpp refuses it) and the model was loaded for this request, the weights go again (once
   * its requests end) instead of holding the budget until the idle timeout with nothing to run.
   */
  private async laneOrRetire(loaded: LoadedModel, requestedAt: number): Promise<ModelLane> {
    try {
      return await this.laneFor(loaded);
    } catch (error) {
      if (loaded.loadedAt > requestedAt) {
        this.engine
          .retire(loaded.id, "its context could not be made")
          .catch((retireError: unknown) =>
            log.warn(
              { modelId: loaded.id, err: errorMessage(retireError) },
              "unload after a failed lane failed",
            ),
          );
      }
      throw error;
    }
  }

  private laneFor(loaded: LoadedModel): Promise<ModelLane> {
    const holder = loaded.attach(attachmentKey, () => {
      const created = new LaneHolder(() => createModelLane(loaded, this.engine, this.laneOptions));
      this.holders.add(created);
      return {
        value: created,
        dispose: async () => {
          created.disposed = true;
          this.holders.delete(created);
          await created.lane?.dispose();
        },
      };
    });
    return holder.get();
  }
}

/**
 * The error a request was stopped with, when its signal was aborted with one (not a plain cancel,
 * a client gone or an eval run cancelled): the server shutting down, a sibling choice that failed.
 */
function stoppedWith(signal: AbortSignal | undefined): PerchError | undefined {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  return reason instanceof PerchError && reason.code !== "cancelled" ? reason : undefined;
}
