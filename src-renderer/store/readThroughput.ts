import type { ServerStats } from "../../src-shared/contracts/dashboardProvisional.js";

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

function pick(record: Record<string, unknown>, paths: string[]): number | undefined {
  for (const path of paths) {
    let value: unknown = record;
    for (const key of path.split(".")) value = (value as Record<string, unknown> | undefined)?.[key];
    const found = num(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Active requests, queue depth and recent generation throughput from a stats answer. */
export function readThroughput(stats: ServerStats): {
  tokensPerSecond: number;
  active: number;
  queued: number;
} {
  const record = stats as Record<string, unknown>;
  return {
    tokensPerSecond:
      pick(record, [
        "recent_throughput.generation_tps",
        "recent_throughput.tg_tps",
        "throughput.generation_tps",
        "throughput.tg_tps",
        "generation_tps",
        "tokens_per_second",
      ]) ?? 0,
    active: pick(record, ["active_requests", "active_sequences", "active"]) ?? 0,
    queued: pick(record, ["queued_requests", "queue_depth", "queued"]) ?? 0,
  };
}
