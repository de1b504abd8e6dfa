import { parseDecimal } from "../../../src-renderer/format/parseDecimal.js";
import { describe, expect, it } from "vitest";
import { timeAxis } from "../../../src-renderer/charts/timeAxis.js";
import { formatNumber } from "../../../src-renderer/format/formatNumber.js";
import { formatPercent } from "../../../src-renderer/format/formatPercent.js";
import { formatSpeed } from "../../../src-renderer/format/formatSpeed.js";

describe("localized numbers", () => {
  it("formats percentages and speeds in the user's locale", () => {
    expect(formatPercent(0.939, "en")).toBe("93.9%");
    expect(formatPercent(0.939, "de")).toBe("93,9\u00a0%");
    expect(formatPercent(0, "de")).toBe("0,0\u00a0%");
    expect(formatPercent(0.939, "ja")).toBe("93.9%");
    expect(formatSpeed(1692.4, "en")).toBe("1,692");
    expect(formatSpeed(1692.4, "de")).toBe("1.692");
    expect(formatSpeed(48.31, "de")).toBe("48,3");
    expect(formatNumber(12345.67, "de", 1)).toBe("12.345,7");
    expect(formatNumber(Number.NaN, "ja")).toBe("–");
  });
});

describe("time axis", () => {
  it("labels runs of one day with their times, not the same date five times", () => {
    const at = Date.parse("2026-12-01T10:00:00Z");
    const axis = timeAxis([at, at + 3_600_000], "en-US");
    const labels = axis.ticks.map(axis.format);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.every((label) => /Dec 1.*\d{2}:\d{2}/.test(label))).toBe(true);
  });

  it("puts a single point in the middle of a padded domain", () => {
    const at = Date.parse("2026-12-01T10:00:00Z");
    const axis = timeAxis([at], "de");
    expect(axis.domain[0]).toBeLessThan(at);
    expect(axis.domain[1]).toBeGreaterThan(at);
    expect(at - axis.domain[0]).toBe(axis.domain[1] - at);
  });
});

describe("parseDecimal (numbers typed into settings fields)", () => {
  it("reads a decimal point and a decimal comma alike", () => {
    expect(parseDecimal("0.7")).toBe(0.7);
    expect(parseDecimal("0,7")).toBe(0.7);
    expect(parseDecimal(" 1,1 ")).toBe(1.1);
    expect(parseDecimal("-,5")).toBe(-0.5);
    expect(parseDecimal("42")).toBe(42);
  });
  it("leaves empty text unset and nonsense NaN, for validation to name", () => {
    expect(parseDecimal("  ")).toBeUndefined();
    expect(parseDecimal("1,2,3")).toBeNaN();
    expect(parseDecimal("abc")).toBeNaN();
  });
  it("reads decimal notation only, not what Number() also takes (hex, binary, Infinity)", () => {
    for (const text of ["0x1", "0b1", "0o7", "Infinity", "1.2.3", "1_000", "."])
      expect(parseDecimal(text)).toBeNaN();
    expect(parseDecimal("1e-5")).toBe(0.00001);
    expect(parseDecimal("5.")).toBe(5);
    expect(parseDecimal("+3")).toBe(3);
  });
});
