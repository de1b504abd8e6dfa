import { describe, expect, it } from "vitest";
import { consecutiveRuns, DecodeShaper, median } from "../../../src-main/scheduler/DecodeShaper.js";

/** Step costs (ms) measured with llama-batched-bench on the 2-core x86 development machine. */
const cpuCosts = { 1: 37, 2: 95, 3: 100, 4: 102, 5: 157, 6: 160, 7: 165, 8: 140 };
/** A GPU-like machine: a token more in a decode costs little. */
const cheapBatching = { 1: 20, 2: 21, 3: 22, 4: 23, 5: 24, 6: 25, 7: 26, 8: 27 };

describe("median", () => {
  it("takes the middle value, or the mean of the middle two, and leaves its input as it was", () => {
    const window = [5, 1, 4, 2, 3];
    expect(median(window)).toBe(3);
    expect(window).toEqual([5, 1, 4, 2, 3]);
    expect(median([9, 1, 7, 3])).toBe(5);
    expect(median([2.5])).toBe(2.5);
    expect(median([3, 3, 1, 3])).toBe(3);
    // A shorter list after a longer one: nothing of the earlier call is left over.
    expect(median([8, 6])).toBe(7);
  });
});

describe("consecutiveRuns", () => {
  it("splits sorted ids where they are not consecutive", () => {
    expect(consecutiveRuns([0, 1, 3, 4, 5, 7])).toEqual([[0, 1], [3, 4, 5], [7]]);
    expect(consecutiveRuns([])).toEqual([]);
  });
});

describe("DecodeShaper.plan", () => {
  it("keeps every run whole where batching is cheap", () => {
    const shaper = new DecodeShaper({ fixedCosts: cheapBatching });
    expect(shaper.plan([0, 1, 2, 3, 4, 5, 6, 7])).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);
    expect(shaper.plan([0, 1, 3])).toEqual([[0, 1], [3]]);
  });

  it("splits a run into the chunks that cost least where small batches are slow", () => {
    const shaper = new DecodeShaper({ fixedCosts: cpuCosts });
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    // 102 + 37 against 157 for five together.
    expect(shaper.plan([0, 1, 2, 3, 4])).toEqual([[0, 1, 2, 3], [4]]);
    // Four together beat four alone (102 against 148) and eight together beat two fours.
    expect(shaper.plan([0, 1, 2, 3])).toEqual([[0, 1, 2, 3]]);
    expect(shaper.plan([0, 1, 2, 3, 4, 5, 6, 7])).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);
    // Never one chunk across a gap in the ids (llama.cpp would split it anyway).
    expect(shaper.plan([2, 3, 5])).toEqual([[2], [3], [5]]);
  });

  it("splits only for a clear saving", () => {
    // Two alone take 90% of two together: not worth a second decode.
    expect(new DecodeShaper({ fixedCosts: { 1: 45, 2: 100 } }).plan([4, 5])).toEqual([[4, 5]]);
    expect(new DecodeShaper({ fixedCosts: { 1: 44, 2: 100 } }).plan([4, 5])).toEqual([[4], [5]]);
  });
});

describe("DecodeShaper.choose", () => {
  it("decodes every queued sequence together where the plan keeps them whole", () => {
    const shaper = new DecodeShaper({ fixedCosts: cheapBatching });
    expect(shaper.choose([2, 0, 1, 3])).toEqual([2, 0, 1, 3]);
    // Runs of consecutive ids are not split either: llama.cpp computes them one after another.
    expect(shaper.choose([5, 0, 1])).toEqual([5, 0, 1]);
  });

  it("decodes one chunk, the one whose sequence has waited longest", () => {
    const shaper = new DecodeShaper({ fixedCosts: cpuCosts });
    expect(shaper.choose([1, 0])).toEqual([1]);
    expect(shaper.choose([0, 1])).toEqual([0]);
    // Five sequences: chunks [0..3] and [4].
    expect(shaper.choose([4, 0, 1, 2, 3])).toEqual([4]);
    expect(shaper.choose([2, 4, 0, 1, 3])).toEqual([0, 1, 2, 3]);
  });

  it("serves every sequence in turn", () => {
    const shaper = new DecodeShaper({ fixedCosts: { 1: 10, 2: 30, 3: 45 } });
    // Three sequences, each decoded alone; a decoded one queues again behind the others.
    let queue = [0, 1, 2];
    const decoded: number[] = [];
    for (let step = 0; step < 30; step++) {
      const ids = shaper.choose(queue);
      expect(ids).toHaveLength(1);
      decoded.push(...ids);
      queue = [...queue.filter((id) => !ids.includes(id)), ...ids];
    }
    expect([0, 1, 2].map((id) => decoded.filter((x) => x === id).length)).toEqual([10, 10, 10]);
  });
});

describe("DecodeShaper measuring", () => {
  it("tries an unmeasured smaller size, then splits where the measurements say so", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0, exploreEvery: 2, minimumSamples: 2 });
    shaper.recordGap(1); // decoding dominates: 1 ms between decodes
    // Nothing measured: the run stays whole (what is measured first).
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
    shaper.record(2, 95);
    shaper.record(2, 96);
    // Size 2 is known, size 1 is not: it is tried.
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    shaper.record(1, 38);
    // One sample is not enough, and the next try waits `exploreEvery` decodes.
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
    shaper.record(2, 94);
    shaper.record(2, 95);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    shaper.record(1, 36);
    // Both measured: 2 x 37 against 95.
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    expect(shaper.estimates()).toEqual([
      { size: 1, ms: 37, samples: 2 },
      { size: 2, ms: 95, samples: 4 },
    ]);
  });

  it("keeps runs whole where batching measured cheap", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0, exploreEvery: 1, minimumSamples: 1 });
    shaper.recordGap(1); // decoding dominates: 1 ms between decodes
    shaper.record(2, 21);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]); // trying size 1
    shaper.record(1, 20);
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
  });

  it("tries nothing more where two 1-token decodes cost as much as the whole run", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0, exploreEvery: 1, minimumSamples: 1 });
    shaper.recordGap(1); // decoding dominates: 1 ms between decodes
    shaper.record(1, 20);
    shaper.record(8, 27);
    expect(shaper.plan([0, 1, 2, 3, 4, 5, 6, 7])).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);
    // Where they cost less, the other sizes are tried in turn.
    shaper.record(8, 60);
    shaper.record(8, 60);
    expect(shaper.plan([0, 1, 2, 3, 4, 5, 6, 7])).toEqual([
      [0, 1],
      [2, 3, 4, 5, 6, 7],
    ]);
  });

  it("splits nothing while the time between decodes is comparable to the decodes (a tiny model)", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0, exploreEvery: 1, minimumSamples: 1 });
    shaper.record(1, 0.9);
    shaper.record(2, 2.4);
    // No gap measured yet: nothing is split.
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
    // Sampling and handling two tokens take 1.5 ms: another decode would cost more than it saves.
    shaper.recordGap(1.5);
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
    // The same decode times behind a 0.2 ms gap: the split pays.
    for (let i = 0; i < 9; i++) shaper.recordGap(0.2);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
  });

  it("measures a close call again, so a few early samples do not decide for good", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0, exploreEvery: 1, minimumSamples: 2 });
    shaper.recordGap(1);
    // Early, unlucky samples: two 1-token decodes (88 ms) look slower than one 2-token decode.
    shaper.record(2, 77);
    shaper.record(2, 77);
    shaper.record(1, 44);
    shaper.record(1, 44);
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
    // 64 decodes later, size 1 (the oldest estimate in the call) is tried again ...
    for (let i = 0; i < 64; i++) shaper.record(2, 77);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    shaper.record(1, 31);
    for (let i = 0; i < 64; i++) shaper.record(2, 77);
    shaper.record(1, 31);
    for (let i = 0; i < 64; i++) shaper.record(2, 77);
    shaper.record(1, 31);
    // ... and once its recent samples say 31 ms, the two are decoded one after the other.
    expect(shaper.estimates()[0]!.ms).toBe(31);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    shaper.record(1, 31);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
  });

  it("takes nothing from the first decodes after a load (cold pages)", () => {
    const shaper = new DecodeShaper({ coldDecodes: 2 });
    shaper.record(1, 60);
    shaper.record(1, 60);
    shaper.record(1, 37);
    expect(shaper.stats().decodes).toBe(1);
    expect(shaper.estimates()).toEqual([{ size: 1, ms: 37, samples: 1 }]);
  });

  it("takes the median of recent decodes, so one stalled decode changes nothing", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0, exploreEvery: 1, minimumSamples: 1 });
    shaper.recordGap(1); // decoding dominates: 1 ms between decodes
    for (let i = 0; i < 5; i++) {
      shaper.record(1, 37);
      shaper.record(2, 95);
    }
    shaper.record(1, 900);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    expect(shaper.estimates()[0]).toEqual({ size: 1, ms: 37, samples: 6 });
  });

  it("measures a size again once its estimate is stale", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0, exploreEvery: 1, minimumSamples: 1, staleAfter: 10 });
    shaper.recordGap(1); // decoding dominates: 1 ms between decodes
    shaper.record(1, 37);
    shaper.record(2, 95);
    expect(shaper.plan([0, 1])).toEqual([[0], [1]]);
    // Only 1-token decodes for a while: the estimate for 2 goes stale and the run is decoded whole.
    for (let i = 0; i < 11; i++) shaper.record(1, 37);
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
    shaper.record(2, 60); // the machine changed: now batching is cheaper
    expect(shaper.plan([0, 1])).toEqual([[0, 1]]);
  });

  it("counts decodes and chunked decodes, and ignores nonsense", () => {
    const shaper = new DecodeShaper({ coldDecodes: 0 });
    shaper.record(1, 37, true);
    shaper.record(2, 95);
    shaper.record(0, 10);
    shaper.record(2, Number.NaN);
    shaper.record(1.5, 10);
    shaper.recordGap(2);
    shaper.recordGap(-1);
    expect(shaper.stats()).toEqual({
      enabled: true,
      decodes: 2,
      chunkedDecodes: 1,
      gapMs: 2,
      sizes: [
        { size: 1, ms: 37, samples: 1 },
        { size: 2, ms: 95, samples: 1 },
      ],
    });
  });
});
