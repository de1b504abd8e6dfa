import { describe, expect, it } from "vitest";
import { resolveSampling } from "../../../src-main/scheduler/resolveSampling.js";

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
});
