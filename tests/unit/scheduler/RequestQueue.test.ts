import { describe, expect, it } from "vitest";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { RequestQueue } from "../../../src-main/scheduler/RequestQueue.js";

describe("RequestQueue", () => {
  it("hands values to waiters in arrival order", async () => {
    const queue = new RequestQueue<string>(() => 4);
    const first = queue.wait();
    const second = queue.wait();
    expect(queue.length).toBe(2);
    expect(queue.handOff("slot-1")).toBe(true);
    expect(queue.handOff("slot-2")).toBe(true);
    expect(await first).toBe("slot-1");
    expect(await second).toBe("slot-2");
    expect(queue.handOff("slot-3")).toBe(false);
  });

  it("answers queue_full (429) beyond its capacity", async () => {
    const queue = new RequestQueue<string>(() => 1);
    void queue.wait();
    const rejected = queue.wait();
    await expect(rejected).rejects.toMatchObject({ code: "queue_full", status: 429 });
    expect(queue.length).toBe(1);
  });

  it("a capacity of 0 rejects every waiter", async () => {
    const queue = new RequestQueue<string>(() => 0);
    await expect(queue.wait()).rejects.toBeInstanceOf(PerchError);
  });

  it("an abort removes the waiter at once and rejects with cancelled", async () => {
    const queue = new RequestQueue<string>(() => 4);
    const controller = new AbortController();
    const aborted = queue.wait(controller.signal);
    const kept = queue.wait();
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: "cancelled" });
    expect(queue.length).toBe(1);
    queue.handOff("slot");
    expect(await kept).toBe("slot");
  });

  it("an already aborted signal never enters the queue", async () => {
    const queue = new RequestQueue<string>(() => 4);
    await expect(queue.wait(AbortSignal.abort())).rejects.toMatchObject({ code: "cancelled" });
    expect(queue.length).toBe(0);
  });

  it("rejectAll empties the queue", async () => {
    const queue = new RequestQueue<string>(() => 4);
    const waiting = queue.wait();
    queue.rejectAll(new Error("unloaded"));
    await expect(waiting).rejects.toThrow("unloaded");
    expect(queue.length).toBe(0);
  });
});
