/**
 * Generated tokens over a sliding window, in one-second buckets so memory stays constant however
 * many tokens flow. `now` is injectable for tests.
 */
export class ThroughputMeter {
  private readonly buckets = new Map<number, number>();

  constructor(
    private readonly windowSeconds = 60,
    private readonly now: () => number = Date.now,
  ) {}

  record(tokens: number): void {
    if (tokens <= 0) return;
    const second = Math.floor(this.now() / 1000);
    this.buckets.set(second, (this.buckets.get(second) ?? 0) + tokens);
    this.prune(second);
  }

  /** Tokens generated within the window. */
  tokensInWindow(): number {
    const second = Math.floor(this.now() / 1000);
    this.prune(second);
    let total = 0;
    for (const count of this.buckets.values()) total += count;
    return total;
  }

  /** Tokens in the window divided by the window length (an idle minute reads 0). */
  tokensPerSecond(): number {
    return this.tokensInWindow() / this.windowSeconds;
  }

  private prune(currentSecond: number): void {
    for (const second of this.buckets.keys()) {
      if (second <= currentSecond - this.windowSeconds) this.buckets.delete(second);
    }
  }
}
