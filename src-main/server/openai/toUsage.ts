import type { Usage } from "../../../src-shared/contracts/openai.js";
import type { GenerationResult } from "../../scheduler/GenerationRequest.js";

/** OpenAI usage plus Perch's `perch` extension (timings, speculative counts). */
export function toUsage(result: GenerationResult): Usage {
  const { usage, timings } = result;
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedPromptTokens },
    perch: {
      queue_wait_ms: round(timings.queueWaitMs),
      ttft_ms: round(timings.ttftMs),
      prompt_tokens_per_second: round(timings.promptTokensPerSecond),
      generation_tokens_per_second: round(timings.generationTokensPerSecond),
      total_ms: round(timings.totalMs),
      ...(result.speculative ? { speculative: result.speculative } : {}),
    },
  };
}

const round = (value: number) => (Number.isFinite(value) ? Math.round(value * 100) / 100 : 0);
