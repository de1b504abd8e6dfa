import { afterEach, describe, expect, it, vi } from "vitest";
import { PromptGathering, PromptPace } from "../../../src-main/scheduler/PromptGathering.js";

/** Whether `promise` has settled once pending callbacks ran (fake timers do not advance). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

/** A gathering on the fake clock (`Date` is faked with the timers; `performance` is not). */
function gathering(limitMs = 250): PromptGathering {
  vi.useFakeTimers();
  return new PromptGathering(limitMs, () => Date.now());
}

afterEach(() => {
  vi.useRealTimers();
});

describe("PromptGathering", () => {
  it("lets a lone request start at once, alone", async () => {
    const lane = gathering();
    const ready = lane.arrive().ready();
    expect(await settled(ready)).toBe(true);
    expect(await ready).toBe(true);
  });

  it("holds a ready request until the others that arrived with it are ready", async () => {
    const lane = gathering();
    const [a, b, c] = [lane.arrive(), lane.arrive(), lane.arrive()];
    const aReady = a.ready();
    const bReady = b.ready();
    expect(await settled(aReady)).toBe(false);
    expect(await settled(bReady)).toBe(false);
    const cReady = c.ready();
    expect(await settled(Promise.all([aReady, bReady, cReady]))).toBe(true);
    expect(await Promise.all([aReady, bReady, cReady])).toEqual([false, false, false]);
    // Once they generate, a newcomer does not wait for anyone, nor for quiet.
    expect(await settled(lane.arrive().ready(8))).toBe(true);
  });

  it("releases the waiting ones when the last readying request leaves instead (failed, cancelled, queued)", async () => {
    const lane = gathering();
    const [a, b] = [lane.arrive(), lane.arrive()];
    const aReady = a.ready();
    expect(await settled(aReady)).toBe(false);
    b.leave();
    expect(await settled(aReady)).toBe(true);
    // Leaving twice changes nothing; ready after leaving returns at once.
    b.leave();
    expect(await b.ready()).toBe(false);
  });

  it("waits at most its limit for a request that stays busy", async () => {
    const lane = gathering();
    const [a] = [lane.arrive(), lane.arrive()];
    const aReady = a.ready();
    await vi.advanceTimersByTimeAsync(249);
    expect(await settled(aReady)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(aReady)).toBe(true);
  });

  it("at an idle lane, waits until no request arrived for its quiet time, and starts a burst together", async () => {
    const lane = gathering();
    const a = lane.arrive();
    const aReady = a.ready(8);
    await vi.advanceTimersByTimeAsync(5);
    expect(await settled(aReady)).toBe(false);
    // A second request arrives 5 ms after the first: the first now waits for it.
    const b = lane.arrive();
    await vi.advanceTimersByTimeAsync(7);
    expect(await settled(aReady)).toBe(false);
    const bReady = b.ready(8);
    // Quiet counts from the last arrival (5 ms): both start at 13 ms, together.
    expect(await settled(bReady)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(Promise.all([aReady, bReady]))).toBe(true);
    expect(await Promise.all([aReady, bReady])).toEqual([false, false]);
  });

  it("counts quiet from the last arrival, so a request that took long to ready starts at once", async () => {
    const lane = gathering();
    const a = lane.arrive();
    await vi.advanceTimersByTimeAsync(10);
    const aReady = a.ready(8);
    expect(await settled(aReady)).toBe(true);
    expect(await aReady).toBe(true);
  });

  it("waits for quiet again once the lane is idle, and a leaver while waiting resolves", async () => {
    const lane = gathering();
    const a = lane.arrive();
    expect(await settled(a.ready())).toBe(true);
    a.leave();
    const b = lane.arrive();
    const bReady = b.ready(8);
    await vi.advanceTimersByTimeAsync(7);
    expect(await settled(bReady)).toBe(false);
    b.leave();
    expect(await bReady).toBe(false);
    const c = lane.arrive();
    const cReady = c.ready(8);
    await vi.advanceTimersByTimeAsync(7);
    expect(await settled(cReady)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await cReady).toBe(true);
  });
});

describe("PromptPace", () => {
  it("uses the cap until a prompt ran alone, then a share of the measured cost per token", () => {
    const pace = new PromptPace(0.02, 8);
    expect(pace.quietMsFor(100)).toBe(8);
    // Too short a prompt to measure is ignored.
    pace.record(40, 4);
    expect(pace.quietMsFor(100)).toBe(8);
    pace.record(100, 100); // 1 ms a token
    expect(pace.quietMsFor(100)).toBeCloseTo(2);
    expect(pace.quietMsFor(1000)).toBe(8);
    // The median of the last five: one slow outlier does not move it.
    pace.record(100, 20);
    pace.record(100, 100);
    expect(pace.quietMsFor(100)).toBeCloseTo(2);
  });
});
