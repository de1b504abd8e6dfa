import { describe, expect, it } from "vitest";
import { DecodeThreads, decodeSizeBucket } from "../../../src-main/scheduler/DecodeThreads.js";

/** Runs `count` decodes of `tokens` tokens whose time depends on the thread count; answers the choices. */
function run(
  chooser: DecodeThreads,
  tokens: number,
  count: number,
  costMs: (threads: number) => number,
): number[] {
  const choices: number[] = [];
  for (let index = 0; index < count; index++) {
    const threads = chooser.choose(tokens);
    choices.push(threads);
    chooser.record(tokens, threads, costMs(threads));
  }
  return choices;
}

describe("DecodeThreads", () => {
  it("buckets decode sizes by powers of two", () => {
    expect([1, 2, 3, 4, 5, 8, 9, 16].map(decodeSizeBucket)).toEqual([1, 2, 4, 4, 8, 8, 16, 16]);
  });

  it("measures both thread counts, then keeps to one thread where small decodes are faster on it", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0 });
    const choices = run(chooser, 1, 200, (threads) => (threads === 1 ? 0.7 : 12));
    // Three measured decodes of each count, taking turns (the configured one first), then one thread.
    expect(choices.slice(0, 6)).toEqual([2, 1, 2, 1, 2, 1]);
    const later = choices.slice(6);
    expect(later.filter((threads) => threads === 1).length).toBeGreaterThan(later.length - 3);
    const stats = chooser.stats();
    expect(stats.sizes).toEqual([{ tokens: 1, oneThreadMs: 0.7, allThreadsMs: 12, chosenThreads: 1 }]);
    expect(stats.decodes).toBe(200);
    expect(stats.oneThreadDecodes).toBe(choices.filter((threads) => threads === 1).length);
  });

  it("keeps every thread where the configured count is faster", () => {
    const chooser = new DecodeThreads(4, { coldDecodes: 0 });
    const choices = run(chooser, 1, 100, (threads) => (threads === 1 ? 35 : 27));
    expect(choices.slice(6).filter((threads) => threads === 4).length).toBeGreaterThan(90);
    expect(chooser.stats().sizes[0]!.chosenThreads).toBe(4);
  });

  it("keeps the configured count where one thread is only a little faster", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0 });
    run(chooser, 1, 50, (threads) => (threads === 1 ? 27 : 30));
    expect(chooser.stats().sizes[0]!.chosenThreads).toBe(2);
    expect(chooser.stats().oneThreadDecodes).toBeLessThan(6);
  });

  it("runs the slower count again only after the decodes took refreshAfter times its extra cost", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0, refreshAfter: 50 });
    const choices = run(chooser, 1, 1000, (threads) => (threads === 1 ? 1 : 10));
    // A trial (9 ms extra) once per 450 ms of 1 ms decodes on one thread, counted from the last
    // measuring decode (the 6th).
    const trials = choices.flatMap((threads, index) => (index >= 6 && threads === 2 ? [index] : []));
    expect(trials).toEqual([455, 906]);
  });

  it("follows a change: once the trials measure the other count faster, it switches", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0, refreshAfter: 5 });
    let oneThreadMs = 1;
    const cost = (threads: number) => (threads === 1 ? oneThreadMs : 4);
    run(chooser, 1, 50, cost);
    expect(chooser.stats().sizes[0]!.chosenThreads).toBe(1);
    oneThreadMs = 20;
    run(chooser, 1, 50, cost);
    expect(chooser.stats().sizes[0]!.chosenThreads).toBe(2);
  });

  it("decides each size on its own, and leaves prompts on every thread", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0 });
    run(chooser, 1, 20, (threads) => (threads === 1 ? 1 : 10));
    run(chooser, 8, 20, (threads) => (threads === 1 ? 40 : 25));
    expect(chooser.choose(1)).toBe(1);
    expect(chooser.choose(7)).toBe(2);
    expect(chooser.choose(17)).toBe(2);
    expect(chooser.choose(512)).toBe(2);
    expect(chooser.stats().sizes.map((size) => [size.tokens, size.chosenThreads])).toEqual([
      [1, 1],
      [8, 2],
    ]);
  });

  it("has nothing to choose with one configured thread, and skips the cold decodes after a load", () => {
    const single = new DecodeThreads(1);
    expect(run(single, 1, 10, () => 1)).toEqual(Array(10).fill(1));
    expect(single.stats().decodes).toBe(0);

    const chooser = new DecodeThreads(2, { coldDecodes: 8 });
    const choices = run(chooser, 1, 14, (threads) => (threads === 1 ? 1 : 10));
    // The first eight are not measured (the configured count runs), then both take turns.
    expect(choices.slice(0, 8)).toEqual(Array(8).fill(2));
    expect(choices.slice(8)).toEqual([2, 1, 2, 1, 2, 1]);
  });

  it("ignores nonsense samples and thread counts it did not choose", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0 });
    chooser.record(1, 2, Number.NaN);
    chooser.record(1, 2, -3);
    chooser.record(1, 3, 5);
    chooser.record(40, 1, 5);
    expect(chooser.stats().sizes).toEqual([]);
  });
});
