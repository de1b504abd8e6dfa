import type { ServerStats } from "../../src-shared/contracts/stats.js";

/** Active requests, queue depth and recent generation throughput from a stats answer. */
export function readThroughput(stats: ServerStats): {
  tokensPerSecond: number;
  active: number;
  queued: number;
} {
  const totals = stats.totals;
  return {
    tokensPerSecond: Math.round((totals?.tokensPerSecond ?? 0) * 10) / 10,
    active: totals?.activeSequences ?? 0,
    queued: totals?.queueDepth ?? 0,
  };
}
