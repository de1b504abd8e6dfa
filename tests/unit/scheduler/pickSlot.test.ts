import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { pickSlot, type SequenceSlot } from "../../../src-main/scheduler/SequenceSlot.js";
import type { GatedTokenPredictor } from "../../../src-main/scheduler/speculation/GatedTokenPredictor.js";

const slot = (index: number, tokens: number[], lastUsedAt: number, requestId?: string): SequenceSlot => ({
  index,
  sequence: { contextTokens: tokens as Token[] } as LlamaContextSequence,
  predictor: {} as GatedTokenPredictor,
  lastUsedAt,
  requestId,
});

describe("pickSlot", () => {
  it("prefers the free slot holding the longest prefix of the prompt", () => {
    const slots = [slot(0, [1, 2], 5), slot(1, [1, 2, 3, 9], 1), slot(2, [1, 2, 3, 4], 9, "busy")];
    expect(pickSlot(slots, [1, 2, 3, 4, 5] as Token[])?.index).toBe(1);
  });

  it("falls back to the least recently used free slot", () => {
    const slots = [slot(0, [7], 5), slot(1, [8], 2), slot(2, [], 3)];
    expect(pickSlot(slots, [1] as Token[])?.index).toBe(1);
  });

  it("returns undefined when every slot is busy", () => {
    expect(pickSlot([slot(0, [], 0, "a")], [1] as Token[])).toBeUndefined();
  });
});
