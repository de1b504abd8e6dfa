import { randomInt } from "node:crypto";
import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import type { SamplingOptions } from "./GenerationRequest.js";
import { samplingDefaults } from "../../src-shared/contracts/modelDefaults.js";

/** Sampling in node-llama-cpp's option shape (shared by `LlamaChat` and `LlamaCompletion`). */
export interface ResolvedSampling {
  temperature: number;
  topK: number;
  topP: number;
  minP: number;
  seed: number;
  /**
   * `false` when no penalty is set: node-llama-cpp otherwise passes a `punishTokens` callback into
   * every evaluation, and a draft predictor still running after the request ended calls it on a
   * disposed generator (an unhandled rejection that kills the process).
   */
  repeatPenalty: false | { penalty?: number; frequencyPenalty?: number; presencePenalty?: number };
  /** Whether any penalty applies; penalised requests never speculate (see `isSpeculationEligible`). */
  penalized: boolean;
}

/**
 * A request's seed: -1 is "a random seed" to llama.cpp (`LLAMA_DEFAULT_SEED`), Ollama and the
 * clients that follow them, so it samples unseeded instead of as the fixed seed -1.
 */
export function requestSeed(seed: number | null | undefined): number | undefined {
  return seed === -1 || seed === null ? undefined : seed;
}

/** llama.cpp's own sampling defaults (`common_params_sampling`), used where neither request nor model sets a value. */
const llamaCppDefaults = {
  temperature: samplingDefaults.temperature,
  topK: samplingDefaults.top_k,
  topP: samplingDefaults.top_p,
  minP: samplingDefaults.min_p,
};

/**
 * Request sampling over model settings over llama.cpp's defaults. Temperature 0 is greedy:
 * node-llama-cpp then picks the argmax and ignores the other samplers.
 */
export function resolveSampling(
  request: SamplingOptions,
  settings: ModelSettings["sampling"] = {},
): ResolvedSampling {
  const penalty = request.repeatPenalty ?? settings.repetition_penalty;
  const frequencyPenalty = request.frequencyPenalty ?? settings.frequency_penalty;
  const presencePenalty = request.presencePenalty ?? settings.presence_penalty;
  const penalized =
    (penalty !== undefined && penalty !== 1) ||
    (frequencyPenalty !== undefined && frequencyPenalty !== 0) ||
    (presencePenalty !== undefined && presencePenalty !== 0);
  return {
    temperature: request.temperature ?? settings.temperature ?? llamaCppDefaults.temperature,
    // top_k 0 means "no limit" in the OpenAI-ish settings and in llama.cpp alike.
    topK: request.topK ?? settings.top_k ?? llamaCppDefaults.topK,
    topP: request.topP ?? settings.top_p ?? llamaCppDefaults.topP,
    minP: request.minP ?? settings.min_p ?? llamaCppDefaults.minP,
    // Unseeded: a random seed of our own. node-llama-cpp's fallback is the current second, so two
    // unseeded requests in one second (a regenerate, `n` choices) would sample the same text.
    seed: request.seed ?? randomInt(2 ** 32),
    repeatPenalty: penalized ? { penalty, frequencyPenalty, presencePenalty } : false,
    penalized,
  };
}
