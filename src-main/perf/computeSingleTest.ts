import type { PerfSingleTest } from "../../src-shared/contracts/performance.js";
import type { PerfSample } from "./PerfTarget.js";
import { safeDivide, safeMs, safeRate } from "./safeRate.js";

export interface PeakMemory {
  rssBytes: number;
  gpuBytes: number | null;
}

/** A usable engine-reported rate, or undefined (then the client-side one is computed). */
export function reportedRate(rate: number | undefined): number | undefined {
  return rate !== undefined && Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

/**
 * Turns one timed request into the stored metrics. TTFT counts from admission (queue wait
 * excluded: a single test has nothing to wait for). pp covers the prompt tokens actually
 * evaluated (cached ones excluded); tg covers the tokens after the first, whose time is in TTFT.
 */
export function computeSingleTest(sample: PerfSample, memory: PeakMemory): PerfSingleTest {
  const ttftMs = safeMs(sample.firstTokenAt - sample.submittedAt - sample.queueWaitMs);
  const generationMs = safeMs(sample.endedAt - sample.firstTokenAt);
  const evaluatedPromptTokens = Math.max(0, sample.promptTokens - sample.cachedPromptTokens);
  const tokensAfterFirst = Math.max(0, sample.generatedTokens - 1);
  const ppTps = reportedRate(sample.promptTokensPerSecond) ?? safeRate(evaluatedPromptTokens, ttftMs);
  const tgTps =
    tokensAfterFirst > 0
      ? (reportedRate(sample.generationTokensPerSecond) ?? safeRate(tokensAfterFirst, generationMs))
      : 0;
  return {
    prompt_tokens: sample.promptTokens,
    generated_tokens: sample.generatedTokens,
    pp_tps: ppTps,
    tg_tps: tgTps,
    ttft_ms: ttftMs,
    cached_prompt_tokens: sample.cachedPromptTokens,
    tpot_ms: tgTps > 0 ? safeDivide(1000, tgTps) : 0,
    e2e_ms: safeMs(sample.endedAt - sample.submittedAt),
    queue_wait_ms: safeMs(sample.queueWaitMs),
    peak_rss_bytes: Math.max(0, Math.round(memory.rssBytes)),
    peak_gpu_bytes: memory.gpuBytes === null ? null : Math.max(0, Math.round(memory.gpuBytes)),
  };
}
