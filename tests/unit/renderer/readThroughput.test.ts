import { describe, expect, it } from "vitest";
import type { ServerStats } from "../../../src-shared/contracts/stats.js";
import { readThroughput } from "../../../src-renderer/store/readThroughput.js";

const stats = (active: number, tokensPerSecond: number) =>
  ({ totals: { activeSequences: active, queueDepth: 0, tokensPerSecond } }) as unknown as ServerStats;

describe("activity now", () => {
  it("reads 0 tok/s now while nothing runs, and keeps the minute's average apart", () => {
    expect(readThroughput(stats(0, 11.7))).toEqual({
      tokensPerSecond: 0,
      minuteAverage: 11.7,
      active: 0,
      queued: 0,
    });
    expect(readThroughput(stats(2, 48.34))).toMatchObject({ tokensPerSecond: 48.3, active: 2 });
  });
});
