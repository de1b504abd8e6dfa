import type { PerfBatchTest } from "../../src-shared/contracts/performance.js";
import type { PeakMemory } from "./computeSingleTest.js";
import type { PerfSample } from "./PerfTarget.js";
import { safeDivide, safeMs, safeRate } from "./safeRate.js";

/**
 * Aggregates requests sent together at `startedAt`. The prompt phase ends when the last request
 * has its first token; the generation phase runs from the first first-token to the last token.
 * Counting tokens after each request's own first token over that (longer) window never
 * flatters tg, even though continuous batching overlaps late prompts with early generations.
 */
export function computeBatchTest(
  samples: PerfSample[],
  startedAt: number,
  memory: PeakMemory,
): PerfBatchTest {
  if (samples.length === 0) throw new Error("a batch test needs at least one request");
  const lastFirstToken = Math.max(...samples.map((sample) => sample.firstTokenAt));
  const firstFirstToken = Math.min(...samples.map((sample) => sample.firstTokenAt));
  const lastEnd = Math.max(...samples.map((sample) => sample.endedAt));
  const evaluatedPrompt = samples.reduce(
    (sum, sample) => sum + Math.max(0, sample.promptTokens - sample.cachedPromptTokens),
    0,
  );
  const afterFirst = samples.reduce((sum, sample) => sum + Math.max(0, sample.generatedTokens - 1), 0);
  const ttfts = samples.map((sample) => safeMs(sample.firstTokenAt - startedAt));
  return {
    batch_size: samples.length,
    prompt_tokens: Math.round(
      safeDivide(
        samples.reduce((sum, sample) => sum + sample.promptTokens, 0),
        samples.length,
      ),
    ),
    generated_tokens: samples.reduce((sum, sample) => sum + sample.generatedTokens, 0),
    aggregate_pp_tps: safeRate(evaluatedPrompt, lastFirstToken - startedAt),
    aggregate_tg_tps: safeRate(afterFirst, lastEnd - firstFirstToken),
    mean_ttft_ms: safeDivide(
      ttfts.reduce((sum, ttft) => sum + ttft, 0),
      ttfts.length,
    ),
    wall_ms: safeMs(lastEnd - startedAt),
    peak_rss_bytes: Math.max(0, Math.round(memory.rssBytes)),
    peak_gpu_bytes: memory.gpuBytes === null ? null : Math.max(0, Math.round(memory.gpuBytes)),
  };
}
