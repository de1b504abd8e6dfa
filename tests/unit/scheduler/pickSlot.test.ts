import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import type { SequenceSlot } from "../../../src-main/scheduler/SequenceSlot.js";
import { countRuns, pickSlot, prefixWorthAGap } from "../../../src-main/scheduler/pickSlot.js";
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

  // Issue 16: conversations A, B, C all open with the same chat-template header; following that
  // shared header put B and C on A's sequence, so A found nothing cached when it came back.
  it("ignores a prefix every prompt shares (under 10% of the prompt) and takes the least recently used", () => {
    const header = [1, 2, 3];
    const conversationA = [...header, ...Array.from({ length: 40 }, (_, i) => 100 + i)];
    const conversationB = [...header, ...Array.from({ length: 40 }, (_, i) => 200 + i)];
    const slots = [slot(0, conversationA, 5), slot(1, [], 0), slot(2, [], 0)];
    expect(pickSlot(slots, conversationB as Token[])?.index).toBe(1);
    expect(pickSlot(slots, [...conversationA, 7] as Token[])?.index).toBe(0);
  });

  it("returns undefined when every slot is busy", () => {
    expect(pickSlot([slot(0, [], 0, "a")], [1] as Token[])).toBeUndefined();
  });

  // Sequences {0, 2, 3, 4} would decode as two ubatches per step ({0}, {2, 3, 4}) for as long as
  // they run; the least recently used slot (4, never used) used to win here.
  it("fills the gap between busy sequences before a fresher slot", () => {
    const slots = [
      slot(0, [], 9, "a"),
      slot(1, [1, 2, 3], 8),
      slot(2, [], 9, "b"),
      slot(3, [], 9, "c"),
      slot(4, [], 0),
      slot(5, [], 0),
    ];
    expect(pickSlot(slots, [1, 2, 3, 4] as Token[])?.index).toBe(1);
    expect(pickSlot(slots, [7] as Token[])?.index).toBe(1);
  });

  it("extends the busy run rather than open a second one", () => {
    const slots = [
      slot(0, [], 9, "a"),
      slot(1, [], 9, "b"),
      slot(2, [], 7),
      slot(3, [5, 6], 1),
      slot(4, [], 0),
    ];
    expect(pickSlot(slots, [5, 6, 7] as Token[])?.index).toBe(2);
  });

  it("takes a much longer cached prefix even if it opens a gap", () => {
    const long = Array.from({ length: prefixWorthAGap + 10 }, (_, i) => i);
    const slots = [slot(0, [], 9, "a"), slot(1, [0, 1], 7), slot(2, [], 5), slot(3, long, 1)];
    expect(pickSlot(slots, [...long, 1] as Token[])?.index).toBe(3);
  });
});

describe("countRuns", () => {
  it("counts runs of consecutive ids", () => {
    expect(countRuns(new Set())).toBe(0);
    expect(countRuns(new Set([3, 0, 1, 2]))).toBe(1);
    expect(countRuns(new Set([0, 1, 3]))).toBe(2);
    expect(countRuns(new Set([0, 2, 4, 5]))).toBe(3);
  });
});
