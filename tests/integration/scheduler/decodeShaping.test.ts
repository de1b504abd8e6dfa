import { getLlama, LlamaModel, type LlamaContext } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { EnginePool } from "../../../src-main/engine/EnginePool.js";
import type { GenerationRequest } from "../../../src-main/scheduler/GenerationRequest.js";
import { Scheduler, type SchedulerOptions } from "../../../src-main/scheduler/Scheduler.js";
import { recordDecodes } from "../../helpers/recordDecodes.js";
import { ensureTestModels } from "../../helpers/testModels.js";

/**
 * Decode shaping (README: concurrent decoding). The dispatch loop of node-llama-cpp's context asks
 * Perch's `DecodeShaper` which waiting one-token decodes run together. Where a 2-token decode
 * costs more than two 1-token ones (this project's 2-core x86 machine: ~95 against 2 x 37 ms), two
 * clients are decoded one after the other, each while the other handles its token. The costs are
 * fixed here so the test does not depend on the machine's speed; the last test measures them.
 */

const generated = 24;
let engine: EnginePool;
const createContext = vi.spyOn(LlamaModel.prototype, "createContext");

beforeAll(async () => {
  const paths = await ensureTestModels();
  engine = new EnginePool({
    getLlama: () => getLlama({ gpu: false, build: "never", progressLogs: false }),
    resolveModel: async (id) => {
      if (id !== "m") throw new PerchError("model_not_found", `No model '${id}'`);
      return { id, path: paths.main, settings: { context_size: 1024, max_concurrent_requests: 4 } };
    },
    threads: 1,
    defaultTtlSeconds: 0,
  });
});

afterAll(async () => {
  createContext.mockRestore();
  await engine?.unloadAll();
});

function request(id: string, text: string): GenerationRequest {
  return {
    requestId: id,
    modelId: "m",
    prompt: { kind: "text", text },
    sampling: { temperature: 0 },
    maxTokens: generated,
    ignoreEos: true,
  };
}

const prompts = ["gamma 0 then line again", "delta 1 copy the fox"];

/**
 * Runs the prompts concurrently on a fresh lane (the model is unloaded afterwards: a lane lives on
 * the loaded model); answers the texts, the one-token decodes and the shaping figures.
 */
async function runConcurrently(options: Omit<SchedulerOptions, "engine">, tag: string) {
  const scheduler = new Scheduler({ engine, ...options });
  const contextsBefore = createContext.mock.results.length;
  await scheduler.generate(request(`${tag}-warm-up`, "warm up"));
  const context = (await createContext.mock.results[contextsBefore]!.value) as LlamaContext;
  const decodes = recordDecodes(context);
  const results = await Promise.all(
    prompts.map((text, index) => scheduler.generate(request(`${tag}-${index}`, text))),
  );
  const lastPromptDecode = decodes.findLastIndex((items) => items.some((item) => item.tokens > 1));
  const stats = scheduler.stats().models[0]!.decodeShaping;
  await engine.unloadAll();
  return {
    texts: results.map((result) => result.text),
    completionTokens: results.map((result) => result.usage.completionTokens),
    steps: decodes.slice(lastPromptDecode + 1).map((items) => items.map((item) => item.sequenceId)),
    stats,
  };
}

describe("decode shaping with two concurrent clients", () => {
  it("decodes them one after the other where a 2-token decode costs more than two 1-token ones", async () => {
    const split = await runConcurrently({ decodeShaping: { fixedCosts: { 1: 37, 2: 95 } } }, "split");
    const whole = await runConcurrently({ decodeShaping: "off" }, "whole");

    expect(split.completionTokens).toEqual([generated, generated]);
    // The same greedy text either way.
    expect(split.texts).toEqual(whole.texts);
    // Shaped: every step after the prompts holds one sequence, and the two take turns.
    expect(split.steps.length).toBeGreaterThanOrEqual(2 * (generated - 2));
    expect(split.steps.filter((ids) => ids.length !== 1)).toEqual([]);
    const turns = split.steps.map((ids) => ids[0]);
    const repeats = turns.filter((id, index) => index > 0 && id === turns[index - 1]);
    expect(repeats.length).toBeLessThanOrEqual(2);
    expect(split.stats.enabled).toBe(true);
    expect(split.stats.chunkedDecodes).toBeGreaterThanOrEqual(generated - 2);
    // Off: the lockstep rule puts both sequences into every step.
    expect(whole.steps.filter((ids) => ids.length !== 2)).toEqual([]);
    expect(whole.stats).toEqual({ enabled: false, decodes: 0, chunkedDecodes: 0, gapMs: 0, sizes: [] });
  });

  it("keeps them in one decode where batching is cheap", async () => {
    const run = await runConcurrently({ decodeShaping: { fixedCosts: { 1: 20, 2: 21 } } }, "cheap");
    expect(run.steps.filter((ids) => ids.length !== 2)).toEqual([]);
    expect(run.stats.chunkedDecodes).toBe(0);
  });

  it("lets a client go mid-stream while decodes are split, and keeps the others on their text", async () => {
    const texts = ["gamma 0 then line again", "epsilon 7 jumps over the", "delta 1 copy the fox"];
    const scheduler = new Scheduler({ engine, decodeShaping: { fixedCosts: { 1: 37, 2: 95, 3: 130 } } });
    await scheduler.generate(request("leave-warm-up", "warm up"));
    const alone = [];
    for (const [index, text] of texts.entries())
      alone.push(await scheduler.generate(request(`alone-${index}`, text)));

    const controller = new AbortController();
    let pieces = 0;
    const [first, left, last] = await Promise.all(
      texts.map((text, index) =>
        scheduler.generate({
          ...request(`leave-${index}`, text),
          // The middle client leaves after a few tokens: its neighbours are then not consecutive.
          ...(index === 1 && {
            signal: controller.signal,
            onText: () => {
              if (++pieces === 6) controller.abort();
            },
          }),
        }),
      ),
    );
    expect(left!.finishReason).toBe("cancelled");
    expect(left!.usage.completionTokens).toBeLessThan(generated);
    for (const [index, result] of [first, last].entries()) {
      expect(result!.usage.completionTokens).toBe(generated);
      expect(result!.text).toBe(alone[index * 2]!.text);
    }
    const stats = scheduler.stats().models[0]!.decodeShaping;
    expect(stats.chunkedDecodes).toBeGreaterThan(0);
    // The lane serves the next request as before.
    const next = await scheduler.generate(request("leave-next", texts[1]!));
    expect(next.text).toBe(alone[1]!.text);
    await engine.unloadAll();
  });

  it("measures each decode size it uses, and tries the sizes it has not seen", async () => {
    const run = await runConcurrently({ decodeShaping: { exploreEvery: 4 } }, "measure");
    const sizes = new Map(run.stats.sizes.map((estimate) => [estimate.size, estimate]));
    expect(sizes.get(1)?.samples).toBeGreaterThanOrEqual(3);
    expect(sizes.get(2)?.samples).toBeGreaterThanOrEqual(1);
    for (const estimate of run.stats.sizes) expect(estimate.ms).toBeGreaterThan(0);
    // Which plan won depends on this machine; either way every client got its tokens.
    expect(run.completionTokens).toEqual([generated, generated]);
    // A step is timed from a decode's start to the next one's: all but the last of each dispatch run.
    expect(run.stats.decodes).toBeGreaterThanOrEqual(run.steps.length / 2);
  });
});
