import { getLlama, LlamaLogLevel, LlamaModel, type LlamaContext } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { EnginePool } from "../../../src-main/engine/EnginePool.js";
import { Scheduler } from "../../../src-main/scheduler/Scheduler.js";
import type { GenerationRequest } from "../../../src-main/scheduler/GenerationRequest.js";
import { recordDecodes } from "../../helpers/recordDecodes.js";
import { ensureTestModels } from "../../helpers/testModels.js";

/**
 * Issue 20 / README "Concurrent decoding". node-llama-cpp 3.21.1 keeps one KV stream per sequence,
 * and llama.cpp's split_equal() then puts only increasing, consecutive sequence ids into one ubatch
 * (one graph computation, one full read of the weights). Unpatched, decodes at 4 concurrent
 * requests held 3 of the 4 sequences (the dispatch loop did not wait for the fourth), in queue
 * order, and the scheduler placed requests on sequences with gaps between them, so a decode step
 * took 1.5-2 graph computations. Fixed: batch items in sequence id order, the dispatch loop waits
 * (boundedly) for sequences still handling their token, and `pickSlot` keeps busy sequences on
 * consecutive ids.
 *
 * The ubatch count is llama.cpp's own: with `GGML_SCHED_DEBUG=1` and graph reuse off, the scheduler
 * logs a "## SPLIT #0" header for every graph it computes (one split on the CPU). Decodes are
 * observed at the native context. No timing is asserted.
 */

// Read by llama.cpp when a context is created. Vitest may run the next test file in this same
// process, so they are put back afterwards (GGML_SCHED_DEBUG changed speculativePatch's counts).
const debugEnvironment = { GGML_SCHED_DEBUG: "1", LLAMA_GRAPH_REUSE_DISABLE: "1" };
const savedEnvironment = Object.fromEntries(
  Object.keys(debugEnvironment).map((name) => [name, process.env[name]]),
);

const generated = 32;
let graphComputations = 0;
let engine: EnginePool;
let scheduler: Scheduler;
const createContext = vi.spyOn(LlamaModel.prototype, "createContext");

beforeAll(async () => {
  Object.assign(process.env, debugEnvironment);
  const paths = await ensureTestModels();
  engine = new EnginePool({
    getLlama: () =>
      getLlama({
        gpu: false,
        build: "never",
        progressLogs: false,
        logLevel: LlamaLogLevel.debug,
        logger: (_level, message) => {
          graphComputations += message.split("## SPLIT #0:").length - 1;
        },
      }),
    resolveModel: async (id) => {
      if (id !== "m") throw new PerchError("model_not_found", `No model '${id}'`);
      // Eight sequences (the default) for four requests: where they land matters.
      return { id, path: paths.main, settings: { context_size: 1024, max_concurrent_requests: 8 } };
    },
    threads: 1,
    defaultTtlSeconds: 0,
  });
  // Costs that favour batching (as on Metal): the decode shaper keeps every waiting sequence in one
  // decode, so this checks the lockstep rule with the shaper in the loop (decodeShaping.test.ts
  // covers the costs that split).
  const batchingIsCheap = Object.fromEntries(
    Array.from({ length: 8 }, (_, index) => [index + 1, 10 + index]),
  );
  scheduler = new Scheduler({ engine, decodeShaping: { fixedCosts: batchingIsCheap } });
});

afterAll(async () => {
  createContext.mockRestore();
  await engine?.unloadAll();
  for (const [name, value] of Object.entries(savedEnvironment)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function request(id: string, text: string, maxTokens: number): GenerationRequest {
  return {
    requestId: id,
    modelId: "m",
    prompt: { kind: "text", text },
    sampling: { temperature: 0 },
    maxTokens,
    ignoreEos: true,
  };
}

/** Lets llama.cpp's log lines (delivered asynchronously) arrive. */
async function settleLogs(): Promise<void> {
  let last = -1;
  while (last !== graphComputations) {
    last = graphComputations;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("decoding 4 concurrent requests", () => {
  it("computes one ubatch per decode step, and every step holds all 4 sequences", async () => {
    await scheduler.generate(request("warm-up", "warm up", 2));
    const context = (await createContext.mock.results[0]!.value) as LlamaContext;
    const decodes = recordDecodes(context);

    // A history after which the least recently used free sequences are not consecutive: five
    // requests, the middle one finishing last.
    await Promise.all(
      [16, 16, 40, 16, 16].map((maxTokens, index) =>
        scheduler.generate(request(`history-${index}`, `history ${index} alpha beta`, maxTokens)),
      ),
    );
    await settleLogs();
    decodes.length = 0;
    const before = graphComputations;

    const words = ["gamma", "delta", "copy", "fox"];
    const results = await Promise.all(
      words.map((word, index) =>
        scheduler.generate(request(`client-${index}`, `${word} ${index} then line again`, generated)),
      ),
    );
    await settleLogs();
    const ubatches = graphComputations - before;

    expect(results.map((result) => result.usage.completionTokens)).toEqual([32, 32, 32, 32]);
    // The counter works: every decode computes at least one graph.
    expect(ubatches).toBeGreaterThanOrEqual(decodes.length);

    const lastPromptDecode = decodes.findLastIndex((items) => items.some((item) => item.tokens > 1));
    const steps = decodes.slice(lastPromptDecode + 1);
    const shapes = steps.map((items) => items.map((item) => item.sequenceId).join(","));
    expect(steps.length).toBeGreaterThanOrEqual(generated - 4);
    // Every generation step after the prompts holds all four sequences ...
    expect(shapes.filter((shape) => shape.split(",").length !== 4)).toEqual([]);
    // ... on consecutive ids, in order.
    const ids = steps[0]!.map((item) => item.sequenceId);
    expect(ids).toEqual([ids[0], ids[0]! + 1, ids[0]! + 2, ids[0]! + 3]);
    // One graph computation per step; a prompt decode may split once per sequence it holds.
    const promptDecodeBound = decodes
      .slice(0, lastPromptDecode + 1)
      .reduce((sum, items) => sum + items.length, 0);
    expect(ubatches).toBeLessThanOrEqual(steps.length + promptDecodeBound);
  });
});
