import type { OllamaChatRequest } from "../../../src-shared/contracts/ollama.js";
import { mappedOllamaOptions } from "../../../src-shared/contracts/ollama.js";
import { PerchError } from "../../base/PerchError.js";
import type { GenerationRequest } from "../../scheduler/GenerationRequest.js";
import { requestSeed } from "../../scheduler/resolveSampling.js";

type Fields = Pick<OllamaChatRequest, "format" | "options" | "think" | "logprobs" | "top_logprobs">;

/**
 * The parts of an Ollama chat or generate request that steer sampling: `options` (temperature,
 * top_p, top_k, min_p, seed, num_predict, stop and the penalties), `format` (`"json"` or a JSON
 * schema: the grammar-constrained modes), `think`, and `logprobs` / `top_logprobs`.
 */
export function ollamaGenerationFields(
  body: Fields,
): Pick<GenerationRequest, "sampling" | "maxTokens" | "stop" | "constraint" | "thinking" | "logprobs"> {
  const options = body.options ?? {};
  if (options.num_predict === 0) {
    throw new PerchError(
      "invalid_request",
      "options.num_predict 0 would generate nothing; use a count, -1 or -2.",
      {
        param: "options.num_predict",
      },
    );
  }
  if (body.top_logprobs !== undefined && body.logprobs !== true) {
    throw new PerchError("invalid_request", "top_logprobs needs logprobs: true.", {
      param: "top_logprobs",
    });
  }
  const format = body.format;
  return {
    ...(body.logprobs ? { logprobs: { top: body.top_logprobs ?? 0 } } : {}),
    sampling: {
      temperature: options.temperature,
      topP: options.top_p,
      // llama.cpp's top_k is a 32-bit int and keeps at most the vocabulary.
      topK: options.top_k === undefined ? undefined : Math.min(options.top_k, maxInt32),
      minP: options.min_p,
      seed: requestSeed(
        options.seed === undefined || options.seed === -1 ? options.seed : samplerSeed(options.seed),
      ),
      repeatPenalty: options.repeat_penalty,
      presencePenalty: options.presence_penalty,
      frequencyPenalty: options.frequency_penalty,
    },
    // -1 (no limit) and -2 (fill the context): until the context ends.
    maxTokens: options.num_predict !== undefined && options.num_predict > 0 ? options.num_predict : undefined,
    stop: options.stop,
    constraint:
      format === "json"
        ? { kind: "json_object" }
        : format && typeof format === "object"
          ? { kind: "json_schema", schema: format, param: "format" }
          : undefined,
    thinking: body.think === undefined ? undefined : body.think !== false,
  };
}

const maxInt32 = 2 ** 31 - 1;

/**
 * Ollama takes any integer seed; the sampler takes 32 bits: the seed modulo 2^32, so the same
 * seed always samples the same (a negative one as its 32-bit two's complement, as before).
 */
function samplerSeed(seed: number): number {
  return ((seed % 2 ** 32) + 2 ** 32) % 2 ** 32;
}

/**
 * Fields of the body no route reads (top level, and `options.*` that are not mapped): reported
 * in `x-perch-ignored-fields` rather than failing the request, as Ollama ignores them too.
 */
export function ignoredOllamaFields(body: Record<string, unknown>, known: readonly string[]): string[] {
  const ignored = Object.keys(body).filter((key) => !known.includes(key));
  const options = body.options;
  if (options && typeof options === "object") {
    for (const key of Object.keys(options))
      if (!mappedOllamaOptions.includes(key)) ignored.push(`options.${key}`);
  }
  return ignored;
}
