import { median } from "./DecodeShaper.js";

/**
 * Requests that arrive together start evaluating their prompts together. Each request first
 * readies its sequence (the prompt is rendered and tokenized, a slot is picked, the prompt cache
 * saves what the sequence held or restores a prefix, then the old tokens are erased), which takes
 * a varying time. The first one ready used to start its prompt alone and the others joined later
 * decodes in groups: at 8 clients on 2 threads (realistic model, slots holding earlier answers) a
 * round ran at 58 tok/s against 67 tok/s with all eight prompts in one batch, since a bigger batch
 * costs less per prompt token and a decode that mixes prompts with other sequences' one-token steps
 * splits into more ubatches. Worse, the others then wait for that whole first prompt decode before
 * they can even erase their sequences (that needs the context lock).
 *
 * So a request that is ready waits until no request that arrived is still readying its sequence,
 * or `limitMs` passed (a slow restore must not hold the others back for long). Requests count from
 * their arrival at the lane, not from their admission: HTTP requests sent together reach the lane
 * a few milliseconds apart (each is parsed, rendered and tokenized on the one JavaScript thread),
 * and the first used to be ready before the second had arrived. For the same reason a request that
 * would start at an idle lane (nothing generating) waits until no request has arrived for its
 * `quietMs`: the caller sizes that to a small share of what the prompt will take (see
 * `PromptPace`), so a lone request pays little and a burst starts as one batch. A request ready
 * while others generate does not wait for quiet: its prompt joins their decodes anyway.
 */
export class PromptGathering {
  private readying = 0;
  private started = 0;
  private lastArrivalAt = Number.NEGATIVE_INFINITY;
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Counts an arrived request as readying. `ready` (its sequence is ready: resolves when its
   * prompt should start, with whether it started alone at an idle lane) or `leave` (it gave up
   * before, e.g. failed, was cancelled or must queue for a slot) ends that; `leave` after `ready`
   * ends its generation. Further calls do nothing.
   */
  arrive(): GatheringTicket {
    this.readying += 1;
    this.lastArrivalAt = this.now();
    let state: "readying" | "waiting" | "started" | "left" = "readying";
    let waiter: Waiter | undefined;
    const leave = () => {
      if (state === "left") return;
      if (state === "readying") this.readying -= 1;
      else if (state === "started") this.started -= 1;
      else {
        this.waiters = this.waiters.filter((entry) => entry !== waiter);
        waiter?.resolve(false);
      }
      state = "left";
      this.settle();
    };
    const ready = (quietMs = 0): Promise<boolean> => {
      if (state !== "readying") return Promise.resolve(false);
      this.readying -= 1;
      state = "waiting";
      return new Promise<boolean>((resolve) => {
        waiter = {
          since: this.now(),
          quietMs,
          resolve,
          start: () => {
            state = "started";
            this.started += 1;
          },
        };
        this.waiters.push(waiter);
        this.settle();
      });
    };
    return { ready, leave };
  }

  /** Releases the waiting requests together once nothing holds them, else re-checks in time. */
  private settle(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiters.length === 0) return;
    const now = this.now();
    const firstSince = Math.min(...this.waiters.map((entry) => entry.since));
    let next = firstSince + this.limitMs;
    if (now >= next) return this.releaseAll();
    if (this.readying === 0) {
      if (this.started > 0) return this.releaseAll();
      const quietUntil = this.lastArrivalAt + Math.max(...this.waiters.map((entry) => entry.quietMs));
      if (now >= quietUntil) return this.releaseAll();
      next = Math.min(next, quietUntil);
    }
    this.timer = setTimeout(() => this.settle(), Math.max(0, next - now));
  }

  private releaseAll(): void {
    const released = this.waiters;
    this.waiters = [];
    const alone = released.length === 1 && this.started === 0;
    for (const entry of released) entry.start();
    for (const entry of released) entry.resolve(alone);
  }
}

interface Waiter {
  since: number;
  quietMs: number;
  resolve: (alone: boolean) => void;
  start: () => void;
}

export interface GatheringTicket {
  ready: (quietMs?: number) => Promise<boolean>;
  leave: () => void;
}

/**
 * What one prompt token costs at this lane when a request's prompt ran alone (milliseconds from its
 * start to its first token, per evaluated token; median of the last five), so the wait for quiet
 * can be a share of the coming prompt: 2% of a 650 ms prompt is 13 ms (capped), of a 10 ms one
 * 0.2 ms. Before the first measurement the cap applies.
 */
export class PromptPace {
  private readonly samples: number[] = [];

  constructor(
    private readonly share: number,
    private readonly capMs: number,
    private readonly minTokens = 16,
  ) {}

  record(promptMs: number, evaluatedTokens: number): void {
    if (evaluatedTokens < this.minTokens || !(promptMs > 0)) return;
    this.samples.push(promptMs / evaluatedTokens);
    if (this.samples.length > 5) this.samples.shift();
  }

  quietMsFor(evaluatedTokens: number): number {
    if (this.samples.length === 0) return this.capMs;
    return Math.min(this.capMs, this.share * evaluatedTokens * median(this.samples));
  }
}
