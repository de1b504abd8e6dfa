import { describe, expect, it } from "vitest";
import { requestSeed, resolveSampling } from "../../../src-main/scheduler/resolveSampling.js";
import { ollamaGenerationFields } from "../../../src-main/server/ollama/ollamaGenerationFields.js";

describe("resolveSampling", () => {
  it("request over model settings over llama.cpp defaults", () => {
    expect(resolveSampling({ temperature: 0 }, { top_k: 10 })).toMatchObject({
      temperature: 0,
      topK: 10,
      topP: 0.95,
      minP: 0.05,
      repeatPenalty: false,
      penalized: false,
    });
    expect(resolveSampling({}, {}).temperature).toBe(0.8);
  });

  it("any non-neutral penalty turns penalties on (and speculation off)", () => {
    expect(resolveSampling({ repeatPenalty: 1 }).penalized).toBe(false);
    expect(resolveSampling({ presencePenalty: 0.5 })).toMatchObject({
      penalized: true,
      repeatPenalty: { presencePenalty: 0.5 },
    });
    expect(resolveSampling({}, { repetition_penalty: 1.1 }).penalized).toBe(true);
  });

  it("keeps a request's seed, and draws a random 32-bit one for an unseeded request", () => {
    expect(resolveSampling({ seed: 0 }).seed).toBe(0);
    expect(resolveSampling({ seed: 7 }).seed).toBe(7);
    const drawn = Array.from({ length: 8 }, () => resolveSampling({}).seed);
    expect(new Set(drawn).size).toBeGreaterThan(1);
    for (const seed of drawn) expect(seed >= 0 && seed < 2 ** 32 && Number.isInteger(seed)).toBe(true);
  });

  it("reads seed -1 (llama.cpp's and Ollama's 'random') as no seed, on Ollama's options too", () => {
    expect(requestSeed(-1)).toBeUndefined();
    expect(requestSeed(null)).toBeUndefined();
    expect(requestSeed(-2)).toBe(-2);
    expect(ollamaGenerationFields({ options: { seed: -1 } }).sampling.seed).toBeUndefined();
    expect(ollamaGenerationFields({ options: { seed: 3 } }).sampling.seed).toBe(3);
  });
});
