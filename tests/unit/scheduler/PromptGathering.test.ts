import { afterEach, describe, expect, it, vi } from "vitest";
import { PromptGathering } from "../../../src-main/scheduler/PromptGathering.js";

/** Whether `promise` has settled once pending callbacks ran (fake timers do not advance). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("PromptGathering", () => {
  it("lets a lone request start at once", async () => {
    vi.useFakeTimers();
    const gathering = new PromptGathering(250);
    expect(await settled(gathering.enter().ready())).toBe(true);
  });

  it("holds a ready request until the others admitted with it are ready", async () => {
    vi.useFakeTimers();
    const gathering = new PromptGathering(250);
    const [a, b, c] = [gathering.enter(), gathering.enter(), gathering.enter()];
    const aReady = a.ready();
    const bReady = b.ready();
    expect(await settled(aReady)).toBe(false);
    expect(await settled(bReady)).toBe(false);
    const cReady = c.ready();
    expect(await settled(Promise.all([aReady, bReady, cReady]))).toBe(true);
    // Afterwards a new lone request does not wait for anyone.
    expect(await settled(gathering.enter().ready())).toBe(true);
  });

  it("releases the waiting ones when the last readying request leaves instead (failed, cancelled)", async () => {
    vi.useFakeTimers();
    const gathering = new PromptGathering(250);
    const [a, b] = [gathering.enter(), gathering.enter()];
    const aReady = a.ready();
    expect(await settled(aReady)).toBe(false);
    b.leave();
    expect(await settled(aReady)).toBe(true);
    // Leaving twice, or after ready, changes nothing.
    b.leave();
    a.leave();
    expect(await settled(gathering.enter().ready())).toBe(true);
  });

  it("waits at most its limit for a request that stays busy", async () => {
    vi.useFakeTimers();
    const gathering = new PromptGathering(250);
    const [a] = [gathering.enter(), gathering.enter()];
    const aReady = a.ready();
    await vi.advanceTimersByTimeAsync(249);
    expect(await settled(aReady)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(aReady)).toBe(true);
  });
});
