import { LlamaModel, type LlamaContext } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EnginePool } from "../../../src-main/engine/EnginePool.js";
import { Scheduler, type SchedulerOptions } from "../../../src-main/scheduler/Scheduler.js";
import { recordDecodeThreads } from "../../helpers/recordDecodes.js";
import { createSchedulerFixture, greedyRequest } from "./schedulerFixture.js";

/**
 * Thread count per decode (README: concurrent decoding). node-llama-cpp 3.21.1 lets ggml start its
 * worker threads for every decode, which can cost a small model's one-token decode more than the
 * decode itself; Perch's `DecodeThreads` times small decodes on one thread and on the configured
 * count and runs them on the faster. Prompts always get every thread. Costs are fixed in the first
 * test so it does not depend on this machine; the last measures them.
 */

const generated = 24;
const prompt =
  "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma";
let engine: EnginePool;
const createContext = vi.spyOn(LlamaModel.prototype, "createContext");

beforeAll(async () => {
  const settings = { context_size: 1024, max_concurrent_requests: 2 };
  ({ engine } = await createSchedulerFixture({ m: { file: "main", settings } }, {}, { threads: 2 }));
});

afterAll(async () => {
  createContext.mockRestore();
  await engine?.unloadAll();
});

const request = (id: string, text: string) =>
  greedyRequest(id, "m", { kind: "text", text }, { maxTokens: generated, ignoreEos: true });

/** One request on a fresh lane (unloaded afterwards): its text, decodes and thread figures. */
async function runOnce(options: Omit<SchedulerOptions, "engine">, tag: string) {
  const scheduler = new Scheduler({ engine, ...options });
  const contextsBefore = createContext.mock.results.length;
  await scheduler.generate(request(`${tag}-warm-up`, "warm up"));
  const context = (await createContext.mock.results[contextsBefore]!.value) as LlamaContext;
  const decodes = recordDecodeThreads(context);
  const result = await scheduler.generate(request(tag, prompt));
  const stats = scheduler.stats().models[0]!.decodeThreads;
  await engine.unloadAll();
  return { text: result.text, completionTokens: result.usage.completionTokens, decodes, stats };
}

describe("thread count per decode", () => {
  it("runs one-token decodes on one thread where that is faster, and the prompt on every thread", async () => {
    const chosen = await runOnce({ decodeThreads: { fixedCosts: { 1: { 1: 0.7 }, 2: { 1: 12 } } } }, "one");
    const configured = await runOnce({ decodeThreads: "off" }, "configured");

    expect(chosen.completionTokens).toBe(generated);
    // The same greedy text on one thread as on two.
    expect(chosen.text).toBe(configured.text);
    const promptDecode = chosen.decodes.find((decode) => decode.tokens > 16);
    expect(promptDecode?.threads).toBe(2);
    const oneToken = chosen.decodes.filter((decode) => decode.tokens === 1);
    expect(oneToken.length).toBeGreaterThanOrEqual(generated - 2);
    expect(oneToken.filter((decode) => decode.threads !== 1)).toEqual([]);
    expect(chosen.stats.oneThreadDecodes).toBeGreaterThanOrEqual(oneToken.length);
    // Off: every decode on the configured two threads, and nothing chosen.
    expect(configured.decodes.filter((decode) => decode.threads !== 2)).toEqual([]);
    expect(configured.stats).toEqual({ threads: 2, decodes: 0, oneThreadDecodes: 0, sizes: [] });
  });

  it("keeps every thread where the configured count is faster", async () => {
    const run = await runOnce({ decodeThreads: { fixedCosts: { 1: { 1: 35 }, 2: { 1: 27 } } } }, "all");
    expect(run.decodes.filter((decode) => decode.threads !== 2)).toEqual([]);
    expect(run.stats.oneThreadDecodes).toBe(0);
  });

  it("measures one-token decodes on both thread counts by default", async () => {
    const run = await runOnce({}, "measured");
    const one = run.stats.sizes.find((size) => size.tokens === 1);
    expect(one?.oneThreadMs).toBeGreaterThan(0);
    expect(one?.allThreadsMs).toBeGreaterThan(0);
    expect(run.decodes.find((decode) => decode.tokens > 16)?.threads).toBe(2);
    // Which count won depends on this machine; either way the request got its tokens.
    expect(run.completionTokens).toBe(generated);
  });
});
