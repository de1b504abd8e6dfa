import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Llama } from "node-llama-cpp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EnginePool } from "../../../src-main/engine/EnginePool.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import type { ModelSettings } from "../../../src-shared/contracts/settings.js";

// The far side of this boundary is llama.cpp; the pool's policy (JIT once, LRU, TTL, pinning) is
// what is under test, so the bindings are replaced by a recorder of load/dispose calls.
function fakeLlama(events: string[], delayMs = 5): Llama {
  return {
    loadModel: async ({ modelPath }: { modelPath: string }) => {
      events.push(`load:${path.basename(modelPath)}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const model = {
        disposed: false,
        dispose: async () => {
          model.disposed = true;
          events.push(`dispose:${path.basename(modelPath)}`);
        },
      };
      return model;
    },
  } as unknown as Llama;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-pool-"));
  for (const name of ["a", "b", "c"]) fs.writeFileSync(path.join(dir, `${name}.gguf`), Buffer.alloc(1000));
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

function makePool(
  events: string[],
  options: { budget?: number; settings?: Record<string, ModelSettings> } = {},
) {
  return new EnginePool({
    getLlama: async () => fakeLlama(events),
    resolveModel: async (id) => {
      if (!["a", "b", "c"].includes(id)) throw new PerchError("model_not_found", `unknown ${id}`);
      return { id, path: path.join(dir, `${id}.gguf`), settings: options.settings?.[id] ?? {} };
    },
    threads: 1,
    memoryBudgetBytes: options.budget,
  });
}

// Each fake file estimates to 1000*1.15 + 64 MiB.
const perModel = Math.ceil(1000 * 1.15) + 64 * 1024 * 1024;

describe("EnginePool", () => {
  it("loads once for concurrent first acquisitions", async () => {
    const events: string[] = [];
    const pool = makePool(events);
    const models = await Promise.all(Array.from({ length: 8 }, () => pool.acquire("a")));
    expect(new Set(models).size).toBe(1);
    expect(pool.loadCount("a")).toBe(1);
    expect(events).toEqual(["load:a.gguf"]);
    expect(pool.list()[0].activeUsers).toBe(8);
    for (const model of models) pool.release(model);
    expect(pool.list()[0].activeUsers).toBe(0);
  });

  it("answers model_not_found and forgets the failed entry", async () => {
    const pool = makePool([]);
    await expect(pool.acquire("zzz")).rejects.toMatchObject({ code: "model_not_found" });
    expect(pool.list()).toEqual([]);
  });

  it("evicts the least recently used idle model when the budget is full", async () => {
    const events: string[] = [];
    const pool = makePool(events, { budget: perModel * 2 + 10 });
    pool.release(await pool.acquire("a"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    pool.release(await pool.acquire("b"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    pool.release(await pool.acquire("a")); // a becomes most recent
    pool.release(await pool.acquire("c"));
    expect(events).toContain("dispose:b.gguf");
    expect(pool.isLoaded("a")).toBe(true);
    expect(pool.isLoaded("b")).toBe(false);
    expect(pool.isLoaded("c")).toBe(true);
  });

  it("never evicts busy or pinned models and says why", async () => {
    const pool = makePool([], { budget: perModel * 2 + 10, settings: { b: { pinned: true } } });
    const held = await pool.acquire("a");
    pool.release(await pool.acquire("b"));
    await expect(pool.acquire("c")).rejects.toMatchObject({ code: "insufficient_memory" });
    pool.release(held);
    pool.release(await pool.acquire("c"));
    expect(pool.isLoaded("a")).toBe(false);
    expect(pool.isLoaded("b")).toBe(true);
  });

  it("unloads after the idle TTL, not while suspended or pinned", async () => {
    const pool = makePool([], { settings: { a: { ttl_seconds: 10 }, b: { ttl_seconds: 10, pinned: true } } });
    // Load with real timers (file I/O and the fake load's delay), then fake only the TTL clock.
    const a = await pool.acquire("a");
    const b = await pool.acquire("b");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const resume = pool.suspendTtl("a");
    pool.release(a);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(pool.isLoaded("a")).toBe(true);
    resume();
    await vi.advanceTimersByTimeAsync(9_000);
    expect(pool.isLoaded("a")).toBe(true);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(pool.isLoaded("a")).toBe(false);

    pool.release(b);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pool.isLoaded("b")).toBe(true);
  });

  it("keeps a model loaded for a keep-alive past setTimeout's 24.8-day limit, and unloads it after", async () => {
    const pool = makePool([]);
    const a = await pool.acquire("a");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // Ollama's keep_alive "720h": 30 days, past 2^31-1 ms (a timer that long fired at once).
    const days = 24 * 3600;
    pool.keepAlive("a", 30 * days);
    pool.release(a);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pool.isLoaded("a")).toBe(true);
    await vi.advanceTimersByTimeAsync(29 * days * 1000);
    expect(pool.isLoaded("a")).toBe(true);
    await vi.advanceTimersByTimeAsync(days * 1000);
    expect(pool.isLoaded("a")).toBe(false);
  });

  it("counts a reserved context against the budget: evicts idle models for it, refuses when none can go", async () => {
    const events: string[] = [];
    const pool = makePool(events, { budget: perModel * 2 + 10, settings: { c: { pinned: true } } });
    const held = await pool.acquire("a");
    await new Promise((resolve) => setTimeout(resolve, 5));
    pool.release(await pool.acquire("b"));
    // a + b fill the budget: a's extra context needs b gone.
    const release = await pool.reserve("a", perModel / 2, "the embedding context");
    expect(events).toContain("dispose:b.gguf");
    expect(pool.isLoaded("a")).toBe(true);
    expect(pool.list().find((info) => info.id === "a")!.estimatedBytes).toBe(perModel + perModel / 2);
    // Now a (with its context) leaves too little for c: a is busy, so c is refused.
    await expect(pool.acquire("c")).rejects.toMatchObject({ code: "insufficient_memory" });
    // More than the budget can ever hold is refused at once, naming what it was for.
    await expect(pool.reserve("a", perModel * 2, "the embedding context")).rejects.toMatchObject({
      code: "insufficient_memory",
      message: expect.stringContaining("The embedding context of 'a'"),
    });
    release();
    expect(pool.list().find((info) => info.id === "a")!.estimatedBytes).toBe(perModel);
    pool.release(await pool.acquire("c"));
    expect(pool.isLoaded("c")).toBe(true);
    pool.release(held);
  });

  it("says a refused size and the budget so that they read apart (not '0.5 GiB but the memory budget is 0.5 GiB')", async () => {
    const budget = 512 * 1024 * 1024;
    const pool = makePool([], { budget });
    pool.release(await pool.acquire("a"));
    // a (perModel) plus this context: about 0.503 GiB, 3 MiB over a 0.5 GiB budget.
    await expect(
      pool.reserve("a", budget - perModel + 3 * 1024 * 1024, "the generation context"),
    ).rejects.toMatchObject({
      code: "insufficient_memory",
      message: "The generation context of 'a' needs about 0.503 GiB but the memory budget is 0.500 GiB.",
    });
    // A few bytes over reads in MiB.
    await expect(pool.reserve("a", budget - perModel + 10, "the generation context")).rejects.toMatchObject({
      message: "The generation context of 'a' needs about 513 MiB but the memory budget is 512 MiB.",
    });
    // Far over keeps one decimal.
    await expect(pool.reserve("a", budget, "the generation context")).rejects.toMatchObject({
      message: "The generation context of 'a' needs about 0.6 GiB but the memory budget is 0.5 GiB.",
    });
  });

  it("refuses a reservation while the other models are busy or pinned, and evicts nothing", async () => {
    const events: string[] = [];
    const pool = makePool(events, { budget: perModel * 2 + 10, settings: { b: { pinned: true } } });
    const held = await pool.acquire("a");
    pool.release(await pool.acquire("b"));
    await expect(pool.reserve("a", perModel / 2, "the embedding context")).rejects.toMatchObject({
      code: "insufficient_memory",
      message: expect.stringContaining("busy or pinned"),
    });
    expect(events.filter((event) => event.startsWith("dispose"))).toEqual([]);
    expect(pool.list().find((info) => info.id === "a")!.estimatedBytes).toBe(perModel);
    pool.release(held);
  });
});
