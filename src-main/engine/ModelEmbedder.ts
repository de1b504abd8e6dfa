import type { LlamaEmbeddingContext, Token } from "node-llama-cpp";
import { PerchError } from "../base/PerchError.js";
import { errorMessage } from "../base/describeError.js";
import type { LoadedModel } from "./LoadedModel.js";

/** One input of an embedding request: text, or token ids of the model's vocabulary. */
export type EmbeddingInput = string | readonly number[];

export interface EmbedOptions {
  /**
   * Cut inputs longer than the context to fit (Ollama's `truncate`) instead of refusing them.
   * Defaults to `false`.
   */
  truncate?: boolean;
  /** Scale every vector to length 1 (what OpenAI's and Ollama's `/api/embed` return). Defaults to `false`. */
  normalize?: boolean;
  /** Stops between inputs when aborted. */
  signal?: AbortSignal;
}

export interface EmbeddingBatch {
  vectors: number[][];
  /** Tokens evaluated over all inputs (after truncation). */
  promptTokens: number;
}

/**
 * Counts an embedding context's bytes against the engine's memory budget (`EnginePool.reserve`);
 * resolves with the function that gives them back.
 */
export type ReserveMemory = (bytes: number) => Promise<() => void>;

/** Context size when a model sets none: its training context, capped (as for generation). */
const defaultContextSizeCap = 8192;

/**
 * A loaded model's embedding context, created on first use beside its generation context, sized
 * and threaded like it, and disposed with the model (it hangs on `LoadedModel.attach`). Its
 * memory (node-llama-cpp's estimate) is reserved in the engine's budget before it is created. Inputs of
 * one request are evaluated in turn on the context's one sequence (llama.cpp pools one sequence
 * per read); the whole input fits in one batch, so pooled models see all of it at once.
 */
export class ModelEmbedder {
  private context: Promise<{ embedding: LlamaEmbeddingContext; contextSize: number }> | undefined;
  private disposed = false;
  private releaseMemory: (() => void) | undefined;

  constructor(
    private readonly loaded: LoadedModel,
    private readonly reserveMemory: ReserveMemory,
  ) {}

  /** The embedder of a loaded model, created once and released when the model unloads. */
  static of(loaded: LoadedModel, reserveMemory: ReserveMemory): ModelEmbedder {
    return loaded.attach("engine.embedder", () => {
      const embedder = new ModelEmbedder(loaded, reserveMemory);
      return { value: embedder, dispose: () => embedder.dispose() };
    });
  }

  /** Length of every vector this model returns. */
  get dimensions(): number {
    return this.loaded.model.embeddingVectorSize;
  }

  async embed(inputs: readonly EmbeddingInput[], options: EmbedOptions = {}): Promise<EmbeddingBatch> {
    const context = await this.getContext();
    // llama.cpp needs the input strictly shorter than the context.
    const limit = context.contextSize - 1;
    const tokenLists = inputs.map((input, index) =>
      this.tokensOf(context.embedding, input, index, limit, options.truncate),
    );
    const vectors: number[][] = [];
    let promptTokens = 0;
    for (const tokens of tokenLists) {
      if (options.signal?.aborted) throw new PerchError("cancelled", "The request was cancelled.");
      if (this.disposed) throw new PerchError("generation_failed", "The model was unloaded.");
      promptTokens += tokens.length;
      let vector: readonly number[];
      try {
        vector = tokens.length === 0 ? [] : (await context.embedding.getEmbeddingFor(tokens)).vector;
      } catch (error) {
        throw new PerchError("generation_failed", `Embedding failed: ${errorMessage(error)}`);
      }
      vectors.push(options.normalize ? normalized(vector) : [...vector]);
    }
    return { vectors, promptTokens };
  }

  /** The input's tokens with the beginning/end tokens the embedding context adds. */
  private tokensOf(
    embedding: LlamaEmbeddingContext,
    input: EmbeddingInput,
    index: number,
    limit: number,
    truncate = false,
  ): Token[] {
    const model = this.loaded.model;
    let tokens: Token[];
    if (typeof input === "string") {
      tokens = model.tokenize(input, false) as Token[];
    } else {
      const vocabulary = vocabularySize(this.loaded);
      const bad = input.find((token) => !Number.isInteger(token) || token < 0 || token >= vocabulary);
      if (bad !== undefined) {
        throw new PerchError(
          "invalid_request",
          `Input ${index} holds token ${bad}, outside the model's vocabulary (0-${vocabulary - 1}).`,
          { param: "input" },
        );
      }
      tokens = input.slice() as Token[];
    }
    const length = embedding.calculateInputLength(tokens);
    if (length <= limit) return tokens;
    if (!truncate) {
      throw new PerchError(
        "context_length_exceeded",
        `Input ${index} is ${length} tokens; the model embeds at most ${limit} at once.`,
        { param: "input" },
      );
    }
    // The added beginning/end tokens count too: cut the input by what overflows.
    return tokens.slice(0, Math.max(0, tokens.length - (length - limit)));
  }

  private getContext(): Promise<{ embedding: LlamaEmbeddingContext; contextSize: number }> {
    this.context ??= this.create().catch((error: unknown) => {
      this.context = undefined;
      throw error;
    });
    return this.context;
  }

  private async create(): Promise<{ embedding: LlamaEmbeddingContext; contextSize: number }> {
    const settings = this.loaded.settings;
    const contextSize =
      settings.context_size ?? Math.min(this.loaded.model.trainContextSize, defaultContextSizeCap);
    // One batch holds a whole input, so a pooled model sees it at once.
    const batchSize = contextSize;
    // Counted before it exists: room is made (or refused) first, as for a model load.
    const release = await this.reserveMemory(await this.estimateBytes(contextSize, batchSize));
    let embedding: LlamaEmbeddingContext;
    try {
      embedding = await this.loaded.model.createEmbeddingContext({
        contextSize,
        batchSize,
        threads: this.loaded.threads,
      });
    } catch (error) {
      release();
      throw new PerchError(
        "model_load_failed",
        `Could not create an embedding context for '${this.loaded.id}': ${errorMessage(error)}`,
      );
    }
    if (this.disposed) {
      release();
      await embedding.dispose();
      throw new PerchError("generation_failed", "The model was unloaded.");
    }
    this.releaseMemory = release;
    return { embedding, contextSize };
  }

  /** RAM and VRAM the context will take, by node-llama-cpp's estimate for this model file. */
  private async estimateBytes(contextSize: number, batchSize: number): Promise<number> {
    const model = this.loaded.model;
    const { cpuRam, gpuVram } = await model.fileInsights.estimateContextResourceRequirementsV2({
      contextSize,
      batchSize,
      sequences: 1,
      modelGpuLayers: model.gpuLayers,
      isEmbeddingContext: true,
    });
    return cpuRam + gpuVram;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const context = await this.context?.catch(() => undefined);
    if (context && !context.embedding.disposed) await context.embedding.dispose();
    this.releaseMemory?.();
  }
}

function vocabularySize(loaded: LoadedModel): number {
  const tokens = loaded.model.fileInfo.metadata.tokenizer?.ggml?.tokens;
  return Array.isArray(tokens) ? tokens.length : 0;
}

function normalized(vector: readonly number[]): number[] {
  const length = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return length > 0 ? vector.map((value) => value / length) : [...vector];
}
