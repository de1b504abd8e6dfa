import type { DecodeShapingStats } from "../../src-shared/contracts/stats.js";
import { countRuns } from "./pickSlot.js";

/**
 * Decides which of a context's waiting one-token decodes run together, from what decodes of each
 * size have cost on this machine.
 *
 * Batching is not always cheaper per token. On the 2-core x86 machine Perch is developed on, with
 * the ~360M Q8_0 model, llama.cpp decodes 1 token in ~37 ms, 2 tokens in ~95 ms, 4 in ~102 and 8
 * in ~140 (llama-batched-bench, node-llama-cpp's own kernels): two clients are served faster by
 * two 1-token decodes than by one 2-token decode, five by a 4-token and a 1-token decode. On Metal
 * a 2-token decode costs about what a 1-token one does, and batching everything is right. So this
 * measures instead of assuming: every decode of one token per sequence reports its number of
 * sequences and its duration; a run of consecutive sequence ids (llama.cpp puts only consecutive
 * ids into one ubatch) is split into chunks only when the measured decodes, each with the time
 * between decodes (sampling, the tokens' handling, the lockstep wait), say the chunks take clearly
 * less time than the whole run, and only while decoding is what takes the time: where the time
 * between decodes is more than a quarter of a chunk's decode, as with a tiny model, one more
 * decode per step costs more than it saves, and nothing is split. Sizes not yet measured are
 * tried now and then (`exploreEvery`), and so is the oldest estimate in a close call (a few early
 * samples must not decide for good); an estimate not refreshed for `staleAfter` decodes is
 * measured again, so a plan follows the machine.
 *
 * Chunks run one after another, never overlapping: the next chunk's decode starts once the last
 * chunk's sequences have queued their next token. Overlapping them (the next chunk decoding while
 * the last one's tokens are handled) was measured slower on the 2-core machine: two clients at
 * 23.9 tok/s, like lockstep (23.9), against 26.6 one after another (median of 4 alternating rounds).
 *
 * The dispatch loop of node-llama-cpp's context asks `choose` before each decode (our patch,
 * `patches/node-llama-cpp+3.21.1.patch`), `record`s every decode of one-token items and
 * `recordGap`s the time from the end of each such decode to the start of the next.
 */
export interface DecodeShaperOptions {
  /**
   * Split a run only when the chunks (their decodes and the time after each) are estimated to take
   * at most this fraction of the whole run's decode and the time after it.
   */
  maximumSplitCostRatio?: number;
  /** Decodes between two tries of an unmeasured size. */
  exploreEvery?: number;
  /**
   * Decodes not taken as samples after a model loads: they run on cold pages (15-30% slower on the
   * development machine).
   */
  coldDecodes?: number;
  /** Samples before a size's estimate is used. */
  minimumSamples?: number;
  /** An estimate with no sample for this many decodes is measured again. */
  staleAfter?: number;
  /**
   * A chunk's decode must take this many times the time between decodes (else nothing is split).
   */
  minimumDecodeToGapRatio?: number;
  /** Per-size decode times in ms to use instead of measuring (tests, experiments; no gap rule). */
  fixedCosts?: Readonly<Record<number, number>>;
}

export interface DecodeSizeEstimate {
  size: number;
  /** Median of the recent samples, in ms. */
  ms: number;
  samples: number;
}

/** Samples kept per size; the estimate is their median, so one stalled decode does not move it. */
const window = 5;
/** A split estimated within this factor of the line (`maximumSplitCostRatio`) is a close call. */
const closeFactor = 1.3;
/** In a close call, an estimate without a sample for this many decodes is measured again. */
const refreshAfter = 32;

export class DecodeShaper {
  private readonly samples = new Map<
    number,
    { recent: number[]; median: number; total: number; lastAt: number }
  >();
  private readonly gaps: number[] = [];
  private gapMedian: number | undefined;
  private readonly minimumDecodeToGapRatio: number;
  /** Plans by their sorted ids, valid until the next sample (the dispatch loop asks often). */
  private readonly plans = new Map<string, number[][]>();
  private decodes = 0;
  private cold = 0;
  private chunkedDecodes = 0;
  private lastExplorationAt = -Infinity;
  private readonly maximumSplitCostRatio: number;
  private readonly exploreEvery: number;
  private readonly minimumSamples: number;
  private readonly coldDecodes: number;
  private readonly staleAfter: number;
  private readonly fixedCosts: Readonly<Record<number, number>> | undefined;

  constructor(options: DecodeShaperOptions = {}) {
    this.maximumSplitCostRatio = options.maximumSplitCostRatio ?? 0.9;
    this.exploreEvery = options.exploreEvery ?? 32;
    this.minimumSamples = options.minimumSamples ?? 2;
    this.coldDecodes = options.fixedCosts ? 0 : (options.coldDecodes ?? 8);
    this.staleAfter = options.staleAfter ?? 4000;
    this.minimumDecodeToGapRatio = options.minimumDecodeToGapRatio ?? 4;
    this.fixedCosts = options.fixedCosts;
  }

  /**
   * A decode of `size` one-token items took `ms`; `chunked` when it left waiting sequences for a
   * following decode (a `choose` split).
   */
  record(size: number, ms: number, chunked = false): void {
    if (!Number.isInteger(size) || size < 1 || !Number.isFinite(ms) || ms < 0) return;
    if (this.cold < this.coldDecodes) {
      this.cold++;
      return;
    }
    this.decodes++;
    this.plans.clear();
    if (chunked) this.chunkedDecodes++;
    let entry = this.samples.get(size);
    if (!entry) {
      entry = { recent: [], median: 0, total: 0, lastAt: 0 };
      this.samples.set(size, entry);
    }
    entry.recent.push(ms);
    if (entry.recent.length > window) entry.recent.shift();
    entry.median = median(entry.recent);
    entry.total++;
    entry.lastAt = this.decodes;
    if (this.pendingTrial?.size === size) {
      this.pendingTrial = undefined;
      this.lastExplorationAt = this.decodes;
    }
  }

  /** The time from the end of a decode of one-token items to the start of the next decode. */
  recordGap(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.gaps.push(ms);
    if (this.gaps.length > window) this.gaps.shift();
    this.gapMedian = median(this.gaps);
    this.plans.clear();
  }

  /** The current estimates, smallest size first (for stats and tests). */
  estimates(): DecodeSizeEstimate[] {
    return [...this.samples.entries()]
      .map(([size, entry]) => ({ size, ms: entry.median, samples: entry.total }))
      .sort((a, b) => a.size - b.size);
  }

  stats(): DecodeShapingStats {
    return {
      enabled: true,
      decodes: this.decodes,
      chunkedDecodes: this.chunkedDecodes,
      gapMs: this.gapMedian ?? 0,
      sizes: this.estimates(),
    };
  }

  /**
   * Which of the queued one-token decodes (sequence ids in the order they queued) to decode now:
   * all of them, or, where the plan splits them, the chunk whose sequence has waited longest (so
   * chunks take turns). The rest stay queued for the next decode.
   */
  choose(queued: readonly number[]): readonly number[] {
    const sorted = [...queued].sort((a, b) => a - b);
    const chunks = this.plan(sorted);
    // As many chunks as runs of consecutive ids: nothing split, all decode together.
    if (chunks.length <= countRuns(new Set(sorted))) return queued;
    const position = new Map(queued.map((id, index) => [id, index]));
    let best = chunks[0]!;
    let bestPosition = Infinity;
    for (const chunk of chunks) {
      const earliest = Math.min(...chunk.map((id) => position.get(id)!));
      if (earliest < bestPosition) {
        best = chunk;
        bestPosition = earliest;
      }
    }
    return best;
  }

  /** Splits sorted sequence ids into the chunks decoded one after another. */
  plan(sortedIds: readonly number[]): readonly (readonly number[])[] {
    const key = sortedIds.join(",");
    const cached = this.plans.get(key);
    if (cached) return cached;
    const chunks: number[][] = [];
    for (const run of consecutiveRuns(sortedIds)) {
      for (const size of this.chunkSizes(run.length)) chunks.push(run.splice(0, size));
    }
    this.plans.set(key, chunks);
    return chunks;
  }

  /** A shape decoded once to measure `size` (see `trial`), until a decode of that size is recorded. */
  private pendingTrial: { length: number; size: number; sizes: number[] } | undefined;

  private chunkSizes(length: number): number[] {
    if (length < 2) return [length];
    const whole = this.cost(length);
    // The whole run is what the dispatch loop did before: measured first, and again when stale.
    if (whole === undefined) return [length];
    // Time between decodes comparable to the decodes themselves: another decode costs too much.
    if (!this.fixedCosts && !this.decodingDominates(whole)) return [length];
    const split = this.cheapestSplit(length);
    const trial = this.fixedCosts ? undefined : this.trial(length, whole, split);
    if (trial) return trial;
    if (!split || !(split.cost < this.splitLine(whole))) return [length];
    if (!this.fixedCosts && !split.sizes.every((size) => this.decodingDominates(this.cost(size)!)))
      return [length];
    return split.sizes;
  }

  /** The cheapest split of a run into two or more chunks of measured sizes (largest chunks first). */
  private cheapestSplit(length: number): { sizes: number[]; cost: number } | undefined {
    const best: { cost: number; first: number }[] = [{ cost: 0, first: 0 }];
    for (let total = 1; total <= length; total++) {
      best[total] = { cost: Infinity, first: 0 };
      for (let size = 1; size <= Math.min(total, length - 1); size++) {
        const cost = this.cost(size);
        if (cost === undefined) continue;
        const candidate = best[total - size]!.cost + cost + this.gap();
        if (candidate < best[total]!.cost) best[total] = { cost: candidate, first: size };
      }
    }
    if (best[length]!.cost === Infinity) return undefined;
    const sizes: number[] = [];
    for (let left = length; left > 0; left -= best[left]!.first) sizes.push(best[left]!.first);
    return { sizes: sizes.sort((a, b) => b - a), cost: best[length]!.cost };
  }

  /** What the chunks of a split, each a decode and the time after it, must cost less than. */
  private splitLine(whole: number): number {
    return (whole + this.gap()) * this.maximumSplitCostRatio;
  }

  /** The time between two decodes (none with fixed costs: they are the whole story). */
  private gap(): number {
    return this.fixedCosts ? 0 : (this.gapMedian ?? 0);
  }

  private decodingDominates(decodeMs: number): boolean {
    return this.gapMedian !== undefined && decodeMs >= this.minimumDecodeToGapRatio * this.gapMedian;
  }

  /**
   * A shape to decode once now, to measure: a size below `length` not measured yet, or, while the
   * choice between splitting and not is close, whichever estimate involved is oldest (a few early
   * samples must not decide for good). Nothing where two 1-token decodes clearly cost more than the
   * whole run: no decode costs less than a 1-token one, so no split can pay there (on Metal, say).
   */
  private trial(length: number, whole: number, split: { sizes: number[]; cost: number } | undefined) {
    if (this.pendingTrial?.length === length) return this.pendingTrial.sizes;
    if (this.decodes - this.lastExplorationAt < this.exploreEvery) return undefined;
    const start = (size: number) => {
      const sizes = size === length ? [length] : [size, length - size];
      this.pendingTrial = { length, size, sizes };
      return sizes;
    };
    const one = this.cost(1);
    if (one === undefined) return start(1);
    const line = this.splitLine(whole);
    if (2 * (one + this.gap()) > line * closeFactor) return undefined;
    for (let size = 2; size < length; size++) if (this.cost(size) === undefined) return start(size);
    if (!split || split.cost > line * closeFactor || split.cost < line / closeFactor) return undefined;
    const involved = [length, ...new Set(split.sizes)];
    const lastAt = (size: number) => this.samples.get(size)?.lastAt ?? 0;
    const oldest = involved.reduce((a, b) => (lastAt(b) < lastAt(a) ? b : a));
    return this.decodes - lastAt(oldest) >= refreshAfter ? start(oldest) : undefined;
  }

  private cost(size: number): number | undefined {
    if (this.fixedCosts) return this.fixedCosts[size];
    const entry = this.samples.get(size);
    if (!entry || entry.total < this.minimumSamples || this.decodes - entry.lastAt > this.staleAfter)
      return undefined;
    return entry.median;
  }
}

/** Sorted ids into runs of consecutive ids: [0, 1, 3] → [[0, 1], [3]]. */
export function consecutiveRuns(sortedIds: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const id of sortedIds) {
    const run = runs.at(-1);
    if (run && run.at(-1)! + 1 === id) run.push(id);
    else runs.push([id]);
  }
  return runs;
}

/** Reused by `median`: it runs after every decode, on the JavaScript thread between decodes. */
const medianScratch: number[] = [];

/**
 * Median of a non-empty list (the mean of the middle two for an even count). The lists are short
 * windows (five samples), so an insertion sort into a reused array: no copy and no `sort` work
 * array allocated per call (with a copy and `sort`, this was ~3.4 KB of garbage per generated token).
 */
export function median(values: readonly number[]): number {
  const count = values.length;
  medianScratch.length = count;
  for (let index = 0; index < count; index++) {
    const value = values[index]!;
    let at = index;
    while (at > 0 && medianScratch[at - 1]! > value) {
      medianScratch[at] = medianScratch[at - 1]!;
      at--;
    }
    medianScratch[at] = value;
  }
  const middle = count >> 1;
  return count % 2 === 1 ? medianScratch[middle]! : (medianScratch[middle - 1]! + medianScratch[middle]!) / 2;
}
