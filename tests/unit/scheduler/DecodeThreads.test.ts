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
    // A run of four on each count (the configured one first; the first decode after the switch is
    // not measured), then one thread.
    expect(choices.slice(0, 8)).toEqual([2, 2, 2, 2, 1, 1, 1, 1]);
    const later = choices.slice(8);
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

  it("does not measure the decode right after a change of thread count", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0 });
    // Two threads are faster in a row, but the first decode after a switch pays 30 ms more
    // (waking the idle core of a VM).
    let previous = 2;
    const choices = run(chooser, 1, 300, (threads) => {
      const ms = (threads === 1 ? 32 : 27) + (threads === previous ? 0 : 30);
      previous = threads;
      return ms;
    });
    expect(chooser.stats().sizes[0]).toEqual({
      tokens: 1,
      oneThreadMs: 32,
      allThreadsMs: 27,
      chosenThreads: 2,
    });
    expect(choices.slice(8).filter((threads) => threads === 1).length).toBeLessThan(10);
  });

  it("does not measure a small decode that follows a prompt on the other thread count", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0 });
    run(chooser, 1, 20, (threads) => (threads === 1 ? 1 : 10));
    // A prompt runs on both threads, then the next one-token decode pays for the switch.
    for (let prompt = 0; prompt < 3; prompt++) {
      chooser.record(100, chooser.choose(100), 50);
      chooser.record(1, chooser.choose(1), 40);
    }
    expect(chooser.stats().sizes[0]!.oneThreadMs).toBe(1);
  });

  it("keeps the configured count where one thread is only a little faster", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0 });
    run(chooser, 1, 50, (threads) => (threads === 1 ? 27 : 30));
    expect(chooser.stats().sizes[0]!.chosenThreads).toBe(2);
    expect(chooser.stats().oneThreadDecodes).toBeLessThan(6);
  });

  it("runs the slower count again only after the decodes took refreshAfter times its extra cost", () => {
    const chooser = new DecodeThreads(2, { coldDecodes: 0, refreshAfter: 50 });
    const choices = run(chooser, 1, 5000, (threads) => (threads === 1 ? 1 : 10));
    // A trial run of four decodes (36 ms extra) once the measured one-thread decodes since the last
    // took 50 x 36 ms: 1,800 decodes of 1 ms.
    const trialRuns = choices.flatMap((threads, index) =>
      index >= 8 && threads === 2 && choices[index - 1] === 1 ? [index] : [],
    );
    expect(trialRuns).toEqual([1806, 3611]);
    expect(choices.slice(1806, 1810)).toEqual([2, 2, 2, 2]);
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
    const choices = run(chooser, 1, 18, (threads) => (threads === 1 ? 1 : 10));
    // The first eight are not measured (the configured count runs on), then a run of each count.
    expect(choices.slice(0, 12)).toEqual(Array(12).fill(2));
    expect(choices.slice(12)).toEqual(Array(6).fill(1));
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
