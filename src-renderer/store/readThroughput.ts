import type { ServerStats } from "../../src-shared/contracts/stats.js";

/** Active requests, queue depth and recent generation throughput from a stats answer. */
export function readThroughput(stats: ServerStats): {
  tokensPerSecond: number;
  minuteAverage: number;
  active: number;
  queued: number;
} {
  const totals = stats.totals;
  const active = totals?.activeSequences ?? 0;
  const minuteAverage = Math.round((totals?.tokensPerSecond ?? 0) * 10) / 10;
  return {
    // The server's figure is a one-minute average: with nothing running, nothing is generated now.
    tokensPerSecond: active > 0 ? minuteAverage : 0,
    minuteAverage,
    active,
    queued: totals?.queueDepth ?? 0,
  };
}
