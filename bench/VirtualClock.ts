/**
 * Simulated time for the scheduling benches: `sleep` only registers a timer, and `run` advances
 * time to the next timer once everything runnable has run. Results are exact and repeatable (no
 * timer jitter), and a run of simulated hours takes milliseconds.
 */
export class VirtualClock {
  private time = 0;
  private sequence = 0;
  private readonly timers: Array<{ at: number; order: number; wake: () => void }> = [];

  /** Simulated milliseconds since the start. */
  now = (): number => this.time;

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => {
      this.timers.push({ at: this.time + Math.max(0, ms), order: this.sequence++, wake });
    });
  }

  /** Drives simulated time until `work` settles. */
  async run<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const watched = work.finally(() => {
      settled = true;
    });
    for (;;) {
      // A macrotask boundary: every microtask the last wake-up caused has run.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (settled) return watched;
      if (this.timers.length === 0) throw new Error("simulation stalled: nothing is waiting on time");
      let next = 0;
      for (let i = 1; i < this.timers.length; i += 1) {
        const a = this.timers[i];
        const b = this.timers[next];
        if (a.at < b.at || (a.at === b.at && a.order < b.order)) next = i;
      }
      const [timer] = this.timers.splice(next, 1);
      this.time = timer.at;
      timer.wake();
    }
  }
}
