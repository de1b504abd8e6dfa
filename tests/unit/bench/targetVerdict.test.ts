import { describe, expect, it } from "vitest";
import { targetVerdict } from "../../../bench/peer/targetVerdict.js";

describe("targetVerdict", () => {
  it("calls a tok/s target met only when every round reaches it", () => {
    expect(targetVerdict([0.95, 1.02, 1.1], { atLeast: 0.95 })).toBe("met");
    expect(targetVerdict([0.94, 1.02, 1.1], { atLeast: 0.95 })).toBe("within noise");
    expect(targetVerdict([0.8, 0.9, 0.94], { atLeast: 0.95 })).toBe("missed");
  });

  it("reads a TTFT target from the other side", () => {
    expect(targetVerdict([0.9, 1.1], { atMost: 1.1 })).toBe("met");
    expect(targetVerdict([1.05, 1.2], { atMost: 1.1 })).toBe("within noise");
    expect(targetVerdict([1.12, 1.3], { atMost: 1.1 })).toBe("missed");
  });

  it("has nothing to say without a target or rounds", () => {
    expect(targetVerdict([1, 1], undefined)).toBe("-");
    expect(targetVerdict([], { atLeast: 1 })).toBe("-");
  });
});
