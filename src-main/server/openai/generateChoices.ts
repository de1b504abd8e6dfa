import { setMaxListeners } from "node:events";
import type { GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";

/**
 * `n` choices as `n` requests through the scheduler, which runs them on parallel sequences (or
 * queues them). Each has its own request id; with a seed, choice 0 samples with the seed and
 * choice `i` with a seed of its own mixed from it (`choiceSeed`), so sampled choices differ
 * (greedy choices are identical, as they must be) and neighbouring seeds share no choice.
 */
export async function generateChoices(
  generate: (request: GenerationRequest) => Promise<GenerationResult>,
  request: GenerationRequest,
  count: number,
  perChoice: (index: number) => Partial<GenerationRequest> = () => ({}),
): Promise<GenerationResult[]> {
  const controller = new AbortController();
  // Every choice's request listens to it (the scheduler adds a few listeners each): no leak warning.
  setMaxListeners(0, controller.signal);
  const outer = request.signal;
  const abort = () => controller.abort(outer?.reason);
  if (outer?.aborted) abort();
  outer?.addEventListener("abort", abort, { once: true });
  try {
    return await Promise.all(
      Array.from({ length: count }, (_, index) =>
        generate({
          ...request,
          ...perChoice(index),
          requestId: index === 0 ? request.requestId : `${request.requestId}-${index}`,
          choicesTogether: request.choicesTogether ?? count,
          sampling: {
            ...request.sampling,
            ...(request.sampling.seed !== undefined
              ? { seed: choiceSeed(request.sampling.seed, index) }
              : {}),
          },
          signal: controller.signal,
        }).catch((error: unknown) => {
          // One failed choice fails the response: stop the others.
          controller.abort(error);
          throw error;
        }),
      ),
    );
  } finally {
    outer?.removeEventListener("abort", abort);
  }
}

/** Usage of all choices: the prompt once, the completions summed. */
/**
 * The choices of several prompts (a `/v1/completions` prompt list) as one result for usage: each
 * prompt's tokens counted once, every choice's generated tokens counted.
 */
export function combinedPromptsResult(groups: GenerationResult[][]): GenerationResult {
  const combined = groups.map(combinedResult);
  const first = combined[0]!;
  const sum = (key: keyof GenerationResult["usage"]) =>
    combined.reduce((total, result) => total + result.usage[key], 0);
  return {
    ...first,
    usage: {
      promptTokens: sum("promptTokens"),
      completionTokens: sum("completionTokens"),
      cachedPromptTokens: sum("cachedPromptTokens"),
    },
  };
}

export function combinedResult(results: GenerationResult[]): GenerationResult {
  const [first] = results;
  if (!first || results.length === 1) return first!;
  return {
    ...first,
    usage: {
      ...first.usage,
      completionTokens: results.reduce((sum, result) => sum + result.usage.completionTokens, 0),
    },
  };
}

/**
 * Choice `index`'s seed: the request's for choice 0, else the seed moved by `index` golden-ratio
 * steps of 2^32. `seed + index` made a sweep over seeds 1..k with n > 1 reuse most samples (seed
 * 8's first choices were seed 7's later ones).
 */
export function choiceSeed(seed: number, index: number): number {
  return index === 0 ? seed : (seed + Math.imul(index, 0x9e3779b9)) >>> 0;
}
