import type { DecodeThreadsStats } from "../src-shared/contracts/stats.js";
import type { Scheduler } from "../src-main/scheduler/Scheduler.js";
import { compareAtLevels } from "./schedulerConcurrency.js";

export interface DecodeThreadsRow {
  concurrency: number;
  /** Aggregate tok/s, median over the rounds, choosing threads per decode (the default) and not. */
  chosen_tps: number;
  configured_tps: number;
  chosen_vs_configured: number;
  /** Share of the choosing lane's small decodes that ran on one thread. */
  one_thread_share: number;
}

export interface DecodeThreadsResult {
  /** The configured thread count of both lanes (Perch's default); with one there is nothing to choose. */
  threads: number;
  rows: DecodeThreadsRow[];
  /** What the choosing lane measured by the end: decode ms by size on one thread and on all. */
  sizes: DecodeThreadsStats["sizes"];
}

/**
 * The thread count per decode chosen (`DecodeThreads`) against every decode on the configured
 * threads, on two lanes of the same model (two schedulers over two engine pools with Perch's
 * default thread count, both serving model id "batch"), rounds interleaved. Each level starts
 * with an unmeasured round on each lane (the choosing one measures both counts there).
 */
export async function measureDecodeThreads(
  chosen: Scheduler,
  configured: Scheduler,
  threads: number,
  levels: readonly number[],
  rounds: number,
  maxTokens: number,
): Promise<DecodeThreadsResult> {
  const figures = () => chosen.stats().models.find((model) => model.modelId === "batch")?.decodeThreads;
  if (threads <= 1) return { threads, rows: [], sizes: [] };
  const levelsCompared = await compareAtLevels(chosen, configured, levels, rounds, maxTokens, figures);
  const rows = levelsCompared.map(({ level, firstTps, secondTps, before, after }): DecodeThreadsRow => {
    const decodes = (after?.decodes ?? 0) - (before?.decodes ?? 0);
    const oneThread = (after?.oneThreadDecodes ?? 0) - (before?.oneThreadDecodes ?? 0);
    return {
      concurrency: level,
      chosen_tps: firstTps,
      configured_tps: secondTps,
      chosen_vs_configured: firstTps / secondTps,
      one_thread_share: decodes > 0 ? oneThread / decodes : 0,
    };
  });
  return { threads, rows, sizes: figures()?.sizes ?? [] };
}
