import { describe, expect, it } from "vitest";
import {
  isMemoryBudgetAccepted,
  memoryBudgetBytes,
  memoryBudgetText,
} from "../../../src-renderer/settings/memoryBudget.js";

const gib = 1024 ** 3;

describe("memory budget field", () => {
  it("reads a decimal comma as the other decimal fields do", () => {
    expect(memoryBudgetBytes("1,5")).toBe(1.5 * gib);
    expect(memoryBudgetBytes("1.5")).toBe(1.5 * gib);
    expect(memoryBudgetBytes(" ")).toBeNull();
    expect(memoryBudgetBytes("lots")).toBeNaN();
  });

  it("shows a saved budget as typed, not with the bytes' rounding error", () => {
    expect(memoryBudgetText(memoryBudgetBytes("1.3"))).toBe("1.3");
    expect(memoryBudgetText(8 * gib)).toBe("8");
    expect(memoryBudgetText(null)).toBe("");
  });

  it("refuses a budget below half a GiB (a slip saved 107 bytes) and anything not a number", () => {
    expect(isMemoryBudgetAccepted(memoryBudgetBytes("0.0000001"))).toBe(false);
    expect(isMemoryBudgetAccepted(memoryBudgetBytes("0.4"))).toBe(false);
    expect(isMemoryBudgetAccepted(memoryBudgetBytes("lots"))).toBe(false);
    expect(isMemoryBudgetAccepted(memoryBudgetBytes("0,5"))).toBe(true);
    expect(isMemoryBudgetAccepted(memoryBudgetBytes(""))).toBe(true);
  });
});
