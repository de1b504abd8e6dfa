import { describe, expect, it } from "vitest";
import { ThroughputMeter } from "../../../src-main/scheduler/ThroughputMeter.js";

describe("ThroughputMeter", () => {
  it("counts tokens of the last window only", () => {
    let now = 1_000_000;
    const meter = new ThroughputMeter(60, () => now);
    meter.record(30);
    now += 30_000;
    meter.record(90);
    expect(meter.tokensInWindow()).toBe(120);
    expect(meter.tokensPerSecond()).toBe(2);
    now += 31_000;
    expect(meter.tokensInWindow()).toBe(90);
    now += 60_000;
    expect(meter.tokensPerSecond()).toBe(0);
  });
});
