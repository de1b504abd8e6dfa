import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { LlamaModel, Token } from "node-llama-cpp";
import type { EnginePool } from "../engine/EnginePool.js";
import type { LoadedModel } from "../engine/LoadedModel.js";
import type { ModelFile } from "../../src-shared/contracts/results.js";
import type { GenerationRequest, GenerationResult } from "../scheduler/GenerationRequest.js";
import { defaultConcurrentRequests } from "../scheduler/createModelLane.js";
import { describeGgufModel, baseModelName } from "./describeGgufModel.js";
import { cutTextToTokens } from "./cutTextToTokens.js";
import { fillerText } from "./fillerText.js";
import type { PerfPrompt, PerfSample, PerfTarget } from "./PerfTarget.js";
import { resolveContextSize } from "./resolveContextSize.js";
import { safeDivide } from "./safeRate.js";
import { UniquePrefixes } from "./UniquePrefixes.js";
import { findExperimentalFeatures } from "./upload/findExperimentalFeatures.js";

export interface LocalTargetDeps {
  engine: Pick<EnginePool, "acquire" | "release" | "suspendTtl">;
  /** The scheduler's `generate`: runs go through the same path as API requests. */
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
  /** Experimental features outside the model's settings (global flags). Defaults to none. */
  extraExperimentalFeatures?: (modelId: string) => string[];
  /**
   * The scheduler's request counts for a model: finished (any outcome) and in flight (running or
   * queued). A run compares them with its own requests to see other clients'. Defaults to none.
   */
  requestCounts?: (modelId: string) => { finished: number; inFlight: number };
  /** The file a model holds now, recorded on its results (`model_file`). Defaults to none. */
  modelFile?: (modelId: string) => Promise<ModelFile | undefined>;
}

/**
 * Measures a local model through the scheduler, exactly as API clients use it. The model is
 * held (acquired, idle TTL suspended) until `close`, so it cannot unload mid-run.
 *
 * Prompts are plain text completions, not chat: a chat template would add tokens of its own, so
 * the prompt could not be cut to an exact count. The prompt text is cut with the model's own
 * tokenizer; the warm-up request calibrates what the scheduler adds around it (a BOS token),
 * and each test checks the count the scheduler reports.
 */
export async function createLocalTarget(modelId: string, deps: LocalTargetDeps): Promise<PerfTarget> {
  const loaded = await deps.engine.acquire(modelId);
  // Results are stored under the model's id, whatever name (an alias) the run was asked with.
  const resumeTtl = deps.engine.suspendTtl(loaded.id);
  try {
    return await describeLocalTarget(loaded.id, loaded, deps, () => {
      resumeTtl();
      deps.engine.release(loaded);
    });
  } catch (error) {
    resumeTtl();
    deps.engine.release(loaded);
    throw error;
  }
}

async function describeLocalTarget(
  modelId: string,
  loaded: LoadedModel,
  deps: LocalTargetDeps,
  releaseModel: () => void,
): Promise<PerfTarget> {
  const { model, llama, settings } = loaded;
  const facts = describeGgufModel(model.fileInfo, baseModelName(modelId));
  const contextSize = resolveContextSize(settings, facts.trainContextSize ?? model.trainContextSize);
  const fileSize = await fs.stat(loaded.path).then(
    (stat) => stat.size,
    () => null,
  );
  // The scheduler tokenizes text prompts as LlamaCompletion does: BOS, then the text with its
  // leading space trimmed. The same call here keeps the cut exact; the warm-up checks the BOS.
  const tokenizeText = (text: string) => model.tokenize(text, false, "trimLeadingSpace");
  const tokenizer = {
    tokenize: tokenizeText,
    detokenize: (tokens: readonly number[]) => model.detokenize(tokens as never),
  };
  const runTag = crypto.randomBytes(3).toString("hex");
  // One per loaded model: its sequences keep earlier runs' prompts, so first tokens stay used.
  const prefixes = loaded.attach("perf.prefixes", () => ({
    value: new UniquePrefixes({
      firstTokenOf: (text) => tokenizeText(text)[0],
      moreStems: () => vocabularyStems(model),
    }),
    dispose: () => undefined,
  }));
  // Tokens the scheduler adds to a text prompt (BOS); measured by the warm-up.
  let addedTokens = model.tokens.bos === null ? 0 : 1;
  let seed = 1;
  // Other clients' requests during the run: every request the scheduler finished since now, less
  // this run's own, plus those in flight at the end (this run's have all ended by then).
  const finishedAtStart = deps.requestCounts?.(modelId).finished ?? 0;
  let ownRequests = 0;

  const buildPrompt = (tokens: number): PerfPrompt => {
    const prefix = prefixes.next(runTag);
    const bodyTokens = Math.max(1, tokens - addedTokens);
    const filler = fillerText(seed++, Math.ceil(bodyTokens * 1.2) + 16);
    let text = cutTextToTokens(tokenizer, `${prefix}${filler}`, bodyTokens);
    // Very short filler can tokenize shorter than predicted: grow it once.
    if (tokenizeText(text).length !== bodyTokens) {
      text = cutTextToTokens(tokenizer, `${prefix}${fillerText(seed++, bodyTokens * 4 + 64)}`, bodyTokens);
    }
    return { text, expectedTokens: bodyTokens + addedTokens };
  };

  const generate = async (
    prompt: PerfPrompt,
    maxTokens: number,
    signal: AbortSignal,
  ): Promise<PerfSample> => {
    const submittedAt = performance.now();
    ownRequests += 1;
    const result = await deps.generate({
      requestId: `perf-${crypto.randomUUID()}`,
      modelId,
      prompt: { kind: "text", text: prompt.text },
      sampling: { temperature: 0 },
      maxTokens,
      ignoreEos: true,
      signal,
    });
    const endedAt = performance.now();
    const { timings, usage } = result;
    // The scheduler's generation window (first to last token) is exact; anchoring it at the
    // end puts the first token on this clock, so TTFT also covers tokenizing the prompt.
    const generationMs =
      usage.completionTokens > 1
        ? safeDivide((usage.completionTokens - 1) * 1000, timings.generationTokensPerSecond)
        : 0;
    return {
      promptTokens: usage.promptTokens,
      generatedTokens: usage.completionTokens,
      cachedPromptTokens: usage.cachedPromptTokens,
      submittedAt,
      queueWaitMs: Math.max(0, timings.queueWaitMs),
      firstTokenAt: Math.max(submittedAt, endedAt - generationMs),
      endedAt,
      promptTokensPerSecond: timings.promptTokensPerSecond,
      generationTokensPerSecond: timings.generationTokensPerSecond,
    };
  };

  const modelFile = await deps.modelFile?.(modelId);
  let closed = false;
  return {
    info: { kind: "local", model_id: modelId },
    modelId,
    ...(modelFile ? { modelFile } : {}),
    model: {
      name: facts.name,
      quantization: facts.quantization,
      parameter_count: facts.parameterCount,
      file_size_bytes: fileSize,
      context_size: contextSize,
    },
    contextSize,
    maxConcurrent: settings.max_concurrent_requests ?? defaultConcurrentRequests,
    backend: llama.gpu === false ? "cpu" : llama.gpu,
    threads: loaded.threads,
    experimentalFeatures: findExperimentalFeatures(settings, deps.extraExperimentalFeatures?.(modelId) ?? []),
    async warmUp(signal) {
      const probe = `${prefixes.next(runTag)}${fillerText(seed++, 24)}`;
      const sample = await generate({ text: probe, expectedTokens: 0 }, 4, signal);
      addedTokens = sample.promptTokens - tokenizeText(probe).length;
    },
    buildPrompt,
    generate,
    ...(deps.requestCounts
      ? {
          otherRequests: () => {
            const counts = deps.requestCounts!(modelId);
            return Math.max(0, counts.finished - finishedAtStart - ownRequests) + counts.inFlight;
          },
        }
      : {}),
    async gpuBytes() {
      if (llama.gpu === false) return null;
      return (await llama.getLlamaMemoryUsage()).gpuVram;
    },
    async close() {
      if (closed) return;
      closed = true;
      releaseModel();
    },
  };
}

/** The vocabulary's word pieces (letters, no leading space): many distinct first tokens. */
function* vocabularyStems(model: LlamaModel): Iterable<string> {
  const tokens: readonly unknown[] | undefined = model.fileInfo.metadata.tokenizer?.ggml?.tokens;
  for (let id = 0; id < (tokens?.length ?? 0); id += 1) {
    const text = model.detokenize([id as Token]);
    if (/^[A-Za-z][A-Za-z0-9]*$/.test(text)) yield text;
  }
}
