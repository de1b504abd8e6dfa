import { describe, expect, it } from "vitest";
import { drawLatencies, runEvalRefillBench } from "../../../../bench/evalRefill.js";

describe("eval refill bench", () => {
  it("draws the same latencies for the same seed", () => {
    expect(drawLatencies(5, 7)).toEqual(drawLatencies(5, 7));
    expect(drawLatencies(5, 7)).not.toEqual(drawLatencies(5, 8));
  });

  it("shows the runner scheduling exactly like greedy list scheduling, and beating fixed chunks", async () => {
    const result = await runEvalRefillBench({ items: 64, spreadSeeds: 2 });
    for (const row of result.rows) {
      expect(row.refill_overhead).toBeCloseTo(0, 9);
      expect(row.refill_s).toBeGreaterThanOrEqual(row.ideal_s);
      expect(row.refill_s).toBeLessThan(row.chunks_s);
    }
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});
