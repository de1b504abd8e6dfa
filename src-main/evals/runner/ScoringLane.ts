/**
 * Scoring tasks in flight, bounded. `submit` returns as soon as the task has started, so a
 * generation slot goes back to generating at once; it waits only when `capacity` tasks are
 * already running (backpressure: generation must not outrun scoring without limit).
 */
export class ScoringLane {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError("capacity must be at least 1");
  }

  /** Tasks started and not yet settled. */
  get size(): number {
    return this.running;
  }

  /** Starts `task` once there is room; resolves when it started, not when it ends. */
  async submit(task: () => Promise<void>): Promise<void> {
    while (this.running >= this.capacity) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    const settled = Promise.resolve()
      .then(task)
      .catch(() => {
        // The task reports its own failures; the lane only counts.
      })
      .finally(() => {
        this.running -= 1;
        this.inFlight.delete(settled);
        this.waiting.shift()?.();
      });
    this.inFlight.add(settled);
  }

  /** Resolves when every started task has settled. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
