import type { DecodeShapingStats } from "../../src-shared/contracts/stats.js";

/**
 * Decides which of a context's waiting one-token decodes run together, from what decodes of each
 * size have cost on this machine.
 *
 * Batching is not always cheaper per token. On the 2-core x86 machine Perch is developed on, with
 * the ~360M Q8_0 model, llama.cpp decodes 1 token in ~37 ms, 2 tokens in ~95 ms, 4 in ~102 and 8
 * in ~140 (llama-batched-bench, node-llama-cpp's own kernels): two clients are served faster by
 * two 1-token decodes than by one 2-token decode, five by a 4-token and a 1-token decode. On Metal
 * a 2-token decode costs about what a 1-token one does, and batching everything is right. So this
 * measures instead of assuming: every one-token decode reports its size and duration; a run of
 * consecutive sequence ids (llama.cpp puts only consecutive ids into one ubatch) is split into
 * chunks only when the measured costs say the chunks take clearly less time than the whole run.
 * Sizes not yet measured are tried now and then (`exploreEvery`); an estimate not refreshed for
 * `staleAfter` decodes is measured again, so a plan follows the machine.
 *
 * The dispatch loop of node-llama-cpp's context asks `choose` before each decode (our patch,
 * `patches/node-llama-cpp+3.21.1.patch`) and `record`s every decode of one-token items.
 */
export interface DecodeShaperOptions {
  /** Split a run only when the chunks are estimated to take at most this fraction of it. */
  maximumSplitCostRatio?: number;
  /** One-token decodes between two tries of an unmeasured size. */
  exploreEvery?: number;
  /** Samples before a size's estimate is used. */
  minimumSamples?: number;
  /** An estimate with no sample for this many one-token decodes is measured again. */
  staleAfter?: number;
  /** Per-size decode costs in ms to use instead of measuring (tests, experiments). */
  fixedCosts?: Readonly<Record<number, number>>;
}

export type ShapeDecision =
  { readonly kind: "decode"; readonly sequenceIds: readonly number[] } | { readonly kind: "wait" };

export interface DecodeSizeEstimate {
  size: number;
  /** Median of the recent samples, in ms. */
  ms: number;
  samples: number;
}

/** Samples kept per size; the estimate is their median, so one stalled decode does not move it. */
const window = 9;

export class DecodeShaper {
  private readonly samples = new Map<number, { recent: number[]; total: number; lastAt: number }>();
  private decodes = 0;
  private chunkedDecodes = 0;
  private lastExplorationAt = -Infinity;
  private readonly maximumSplitCostRatio: number;
  private readonly exploreEvery: number;
  private readonly minimumSamples: number;
  private readonly staleAfter: number;
  private readonly fixedCosts: Readonly<Record<number, number>> | undefined;

  constructor(options: DecodeShaperOptions = {}) {
    this.maximumSplitCostRatio = options.maximumSplitCostRatio ?? 0.9;
    this.exploreEvery = options.exploreEvery ?? 24;
    this.minimumSamples = options.minimumSamples ?? 3;
    this.staleAfter = options.staleAfter ?? 4000;
    this.fixedCosts = options.fixedCosts;
  }

  /**
   * A decode of `size` one-token items took `ms`; `chunked` when it left waiting sequences for a
   * following decode (a `choose` split).
   */
  record(size: number, ms: number, chunked = false): void {
    if (!Number.isInteger(size) || size < 1 || !Number.isFinite(ms) || ms < 0) return;
    this.decodes++;
    if (chunked) this.chunkedDecodes++;
    let entry = this.samples.get(size);
    if (!entry) {
      entry = { recent: [], total: 0, lastAt: 0 };
      this.samples.set(size, entry);
    }
    entry.recent.push(ms);
    if (entry.recent.length > window) entry.recent.shift();
    entry.total++;
    entry.lastAt = this.decodes;
    if (this.pendingExploration === size) {
      this.pendingExploration = undefined;
      this.lastExplorationAt = this.decodes;
    }
  }

  /** The current estimates, smallest size first (for stats and tests). */
  estimates(): DecodeSizeEstimate[] {
    return [...this.samples.entries()]
      .map(([size, entry]) => ({ size, ms: median(entry.recent), samples: entry.total }))
      .sort((a, b) => a.size - b.size);
  }

  stats(): DecodeShapingStats {
    return {
      enabled: true,
      decodes: this.decodes,
      chunkedDecodes: this.chunkedDecodes,
      sizes: this.estimates(),
    };
  }

  /**
   * What to decode next. `queued`: the sequences with a one-token decode waiting, in the order
   * they queued. `awaiting`: sequences just decoded that are still handling their token and will
   * queue the next one shortly. Returns the sequences to decode now (a subset of `queued`), or
   * `wait` when the planned chunks all include a sequence still handling its token (the caller
   * waits, boundedly, and then decodes what is queued).
   */
  choose(queued: readonly number[], awaiting: readonly number[]): ShapeDecision {
    const queuedSet = new Set(queued);
    const everyone = [...new Set([...queued, ...awaiting])].sort((a, b) => a - b);
    const chunks = this.plan(everyone);
    const split = chunks.length > consecutiveRuns(everyone).length;
    if (!split) {
      // One chunk per run: decode everything together, as the lockstep rule always did.
      return awaiting.some((id) => !queuedSet.has(id))
        ? { kind: "wait" }
        : { kind: "decode", sequenceIds: queued };
    }
    const position = new Map(queued.map((id, index) => [id, index]));
    let best: number[] | undefined;
    let bestPosition = Infinity;
    for (const chunk of chunks) {
      if (!chunk.every((id) => queuedSet.has(id))) continue;
      // The chunk that has waited longest goes first, so no chunk is passed over for long.
      const earliest = Math.min(...chunk.map((id) => position.get(id)!));
      if (earliest < bestPosition) {
        best = chunk;
        bestPosition = earliest;
      }
    }
    return best ? { kind: "decode", sequenceIds: best } : { kind: "wait" };
  }

  /** Splits sorted sequence ids into the chunks decoded one after another. */
  plan(sortedIds: readonly number[]): number[][] {
    const chunks: number[][] = [];
    for (const run of consecutiveRuns(sortedIds)) {
      for (const size of this.chunkSizes(run.length)) chunks.push(run.splice(0, size));
    }
    return chunks;
  }

  private pendingExploration: number | undefined;

  private chunkSizes(length: number): number[] {
    if (length < 2) return [length];
    const whole = this.cost(length);
    // The whole run is what the dispatch loop did before: measured first, and again when stale.
    if (whole === undefined) return [length];
    const unmeasured = this.unmeasuredSize(length);
    if (unmeasured !== undefined) return [unmeasured, length - unmeasured];
    // Cheapest split into chunks of measured sizes (sizes are small: a context's sequences).
    const best: { cost: number; first: number }[] = [{ cost: 0, first: 0 }];
    for (let total = 1; total <= length; total++) {
      best[total] = { cost: Infinity, first: total };
      for (let size = 1; size <= total; size++) {
        const cost = size === length ? whole : this.cost(size);
        if (cost === undefined) continue;
        const candidate = best[total - size]!.cost + cost;
        if (candidate < best[total]!.cost) best[total] = { cost: candidate, first: size };
      }
    }
    if (!(best[length]!.cost < whole * this.maximumSplitCostRatio)) return [length];
    const sizes: number[] = [];
    for (let left = length; left > 0; left -= best[left]!.first) sizes.push(best[left]!.first);
    return sizes.sort((a, b) => b - a);
  }

  /** A size below `length` to try now, if one is unmeasured and it is time to try one. */
  private unmeasuredSize(length: number): number | undefined {
    if (this.fixedCosts) return undefined;
    if (this.pendingExploration !== undefined && this.pendingExploration < length)
      return this.pendingExploration;
    if (this.decodes - this.lastExplorationAt < this.exploreEvery) return undefined;
    for (let size = 1; size < length; size++) {
      if (this.cost(size) === undefined) {
        this.pendingExploration = size;
        return size;
      }
    }
    return undefined;
  }

  private cost(size: number): number | undefined {
    if (this.fixedCosts) return this.fixedCosts[size];
    const entry = this.samples.get(size);
    if (!entry || entry.total < this.minimumSamples || this.decodes - entry.lastAt > this.staleAfter)
      return undefined;
    return median(entry.recent);
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
