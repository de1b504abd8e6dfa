import { describe, expect, it } from "vitest";
import { measureExclusiveSeconds } from "../../../../src-main/evals/runner/measureExclusiveSeconds.js";

describe("measureExclusiveSeconds", () => {
  it("counts only the busy time that no other interval covers", () => {
    const scoring = [
      { start: 0, end: 1000 },
      { start: 500, end: 3000 }, // overlaps the first: counted once
      { start: 5000, end: 6000 },
    ];
    const generation = [
      { start: 0, end: 2000 },
      { start: 5500, end: 7000 },
    ];
    // 2000..3000 and 5000..5500 are scoring alone.
    expect(measureExclusiveSeconds(scoring, generation)).toBe(1.5);
    expect(measureExclusiveSeconds(scoring, [])).toBe(4);
    expect(measureExclusiveSeconds([], generation)).toBe(0);
  });
});
