import type { DecodeThreadsStats } from "../../src-shared/contracts/stats.js";
import { median } from "./DecodeShaper.js";

/**
 * Chooses how many CPU threads each small decode of one context runs on: the configured count or
 * one, whichever measured faster for decodes of that size.
 *
 * node-llama-cpp 3.21.1 attaches no persistent ggml thread pool to its contexts, so ggml starts
 * fresh worker threads for every graph computation (llama.cpp's own tools attach a pool that
 * stays). For a large decode that start is noise; for a small one it can be most of the decode:
 * on this project's 2-core VM, 50 one-token decodes of the tiny test model took ~1 s at 2 threads
 * and ~50 ms at 1 (the same library with a pool attached: ~65 ms), while the ~360M realistic model
 * still decodes one token faster at 2 threads. So this is measured per machine, model and size,
 * like `DecodeShaper`. Decodes of more than `maxTokens` tokens (prompts) always use every thread:
 * trying one thread there would cost a whole slow prompt.
 */
export interface DecodeThreadsOptions {
  /** Largest decode (tokens) that may run on one thread. Default 16. */
  maxTokens?: number;
  /** Decodes of each thread count a size needs before the faster one is chosen. Default 3. */
  minSamples?: number;
  /**
   * Decodes in a row on a thread count being measured (exploring or a trial); the first decode
   * after a change of thread count is never measured (on a VM it also pays for waking the idle
   * core), so a run of 4 gives 3 samples. Default 4.
   */
  runLength?: number;
  /** Recent decodes an estimate is the median of. Default 5. */
  window?: number;
  /**
   * The slower thread count runs again once the decodes of that size have taken this many times
   * what such a trial costs extra (the estimates' difference, at least a tenth of a decode), so
   * staying current costs at most 1/refreshAfter of the decode time. Default 200.
   */
  refreshAfter?: number;
  /**
   * One thread is chosen only where its estimate is below this share of the configured count's:
   * a wrong choice of one thread costs a large model up to half its speed, while where one thread
   * wins (small models) it wins by far more than this margin. Default 0.85.
   */
  oneThreadMargin?: number;
  /** Decodes after a load that are not measured (pages still cold). Default 8. */
  coldDecodes?: number;
  /** Test hook: costs (ms) by thread count and size bucket instead of measured ones. */
  fixedCosts?: Record<number, Record<number, number>>;
}

/** Size buckets: 1, 2, 3–4, 5–8, 9–16, … tokens (a bucket is named by its largest size). */
export function decodeSizeBucket(tokens: number): number {
  let bucket = 1;
  while (bucket < tokens) bucket *= 2;
  return bucket;
}

export class DecodeThreads {
  private readonly samples = new Map<number, Map<number, number[]>>();
  /** Per size bucket: decode time (ms) since the slower thread count last ran. */
  private readonly spentSinceTrial = new Map<number, number>();
  /** Per size bucket: a run of decodes on one thread count being measured, and how many are left. */
  private readonly runs = new Map<number, { threads: number; left: number }>();
  /** The thread count of the last decode recorded (a change makes the next decode unmeasured). */
  private lastThreads: number | undefined;
  private recorded = 0;
  private decodes = 0;
  private oneThreadDecodes = 0;
  private readonly maxTokens: number;
  private readonly minSamples: number;
  private readonly runLength: number;
  private readonly window: number;
  private readonly refreshAfter: number;
  private readonly coldDecodes: number;
  private readonly oneThreadMargin: number;

  constructor(
    readonly threads: number,
    private readonly options: DecodeThreadsOptions = {},
  ) {
    this.maxTokens = options.maxTokens ?? 16;
    this.minSamples = options.minSamples ?? 3;
    this.runLength = options.runLength ?? 4;
    this.window = options.window ?? 5;
    this.refreshAfter = options.refreshAfter ?? 200;
    this.coldDecodes = options.fixedCosts ? 0 : (options.coldDecodes ?? 8);
    this.oneThreadMargin = options.oneThreadMargin ?? 0.85;
  }

  /** Thread count for a decode of `tokens` tokens. */
  choose(tokens: number): number {
    if (this.threads <= 1 || tokens > this.maxTokens || tokens < 1) return this.threads;
    const chosen = this.pick(decodeSizeBucket(tokens));
    this.decodes += 1;
    if (chosen === 1) this.oneThreadDecodes += 1;
    return chosen;
  }

  /** How long a decode of `tokens` tokens (any size: a prompt changes the thread count too) took on `threads` threads. */
  record(tokens: number, threads: number, ms: number): void {
    const switched = this.lastThreads !== undefined && this.lastThreads !== threads;
    this.lastThreads = threads;
    if (!(ms > 0) || tokens > this.maxTokens || (threads !== 1 && threads !== this.threads)) return;
    this.recorded += 1;
    if (this.recorded <= this.coldDecodes || switched) return;
    const bucket = decodeSizeBucket(tokens);
    this.spentSinceTrial.set(
      bucket,
      threads === this.best(bucket) ? (this.spentSinceTrial.get(bucket) ?? 0) + ms : 0,
    );
    let byThreads = this.samples.get(bucket);
    if (!byThreads) this.samples.set(bucket, (byThreads = new Map()));
    const recent = byThreads.get(threads) ?? [];
    recent.push(ms);
    if (recent.length > this.window) recent.shift();
    byThreads.set(threads, recent);
  }

  stats(): DecodeThreadsStats {
    const sizes = [...new Set([...this.samples.keys(), ...this.fixedBuckets()])]
      .sort((a, b) => a - b)
      .map((tokens) => ({
        tokens,
        oneThreadMs: this.estimate(tokens, 1) ?? null,
        allThreadsMs: this.estimate(tokens, this.threads) ?? null,
        chosenThreads: this.best(tokens) ?? this.threads,
      }));
    return { threads: this.threads, decodes: this.decodes, oneThreadDecodes: this.oneThreadDecodes, sizes };
  }

  private pick(bucket: number): number {
    const run = this.runs.get(bucket);
    if (run && run.left > 0) {
      run.left -= 1;
      return run.threads;
    }
    // Each thread count first runs until it has `minSamples` measured decodes (the configured count
    // first), in runs, so a switch of thread count is not what gets measured.
    for (const threads of [this.threads, 1]) {
      if (this.sampleCount(bucket, threads) < this.minSamples) return this.startRun(bucket, threads);
    }
    const best = this.best(bucket)!;
    const other = best === 1 ? this.threads : 1;
    // What a trial run costs extra, at least a tenth of a decode each (the margin can keep a count
    // that is slightly slower than the other).
    const chosenMs = this.estimate(bucket, best)!;
    const extra = this.runLength * Math.max(this.estimate(bucket, other)! - chosenMs, 0.1 * chosenMs);
    if ((this.spentSinceTrial.get(bucket) ?? 0) >= this.refreshAfter * extra)
      return this.startRun(bucket, other);
    return best;
  }

  private startRun(bucket: number, threads: number): number {
    this.runs.set(bucket, { threads, left: this.runLength - 1 });
    return threads;
  }

  private fixedBuckets(): number[] {
    return Object.values(this.options.fixedCosts ?? {}).flatMap((byBucket) =>
      Object.keys(byBucket).map(Number),
    );
  }

  private best(bucket: number): number | undefined {
    const one = this.estimate(bucket, 1);
    const all = this.estimate(bucket, this.threads);
    if (one === undefined || all === undefined) return undefined;
    return one < this.oneThreadMargin * all ? 1 : this.threads;
  }

  private sampleCount(bucket: number, threads: number): number {
    if (this.options.fixedCosts)
      return this.options.fixedCosts[threads]?.[bucket] === undefined ? 0 : Infinity;
    return this.samples.get(bucket)?.get(threads)?.length ?? 0;
  }

  private estimate(bucket: number, threads: number): number | undefined {
    const fixed = this.options.fixedCosts?.[threads]?.[bucket];
    if (fixed !== undefined) return fixed;
    const recent = this.samples.get(bucket)?.get(threads);
    return recent && recent.length > 0 ? median(recent) : undefined;
  }
}
