export interface RunEventLogOptions<E> {
  /**
   * Progress events: one that follows another progress event replaces it in the replay (the
   * listeners still get every one), so a long download's replay stays short. Defaults to none.
   */
  isProgress?: (event: E) => boolean;
  /**
   * The event that ends the run: appending it ends the log after it is delivered. Defaults to
   * none (the owner calls `end`).
   */
  isTerminal?: (event: E) => boolean;
  /**
   * Most events kept for the replay. Past it the oldest but the first (the run's start, which
   * carries its totals) are dropped, so a run of any length holds bounded memory. Defaults to
   * `100_000`.
   */
  maxEvents?: number;
}

interface Listener<E> {
  onEvent: (event: E) => void;
  onEnd?: () => void;
}

/**
 * The events of one long-running job (an eval run, a performance run, a download, a chat reply),
 * for streaming: a subscriber that joins at any time first gets a replay of the run so far, then
 * live events, then a clean end. The replay is synchronous, so no event slips between the replay
 * and the live part. A listener that throws (a closed socket) never stops the run or the others.
 */
export class RunEventLog<E> {
  private readonly kept: E[] = [];
  private readonly listeners = new Set<Listener<E>>();
  private ended = false;
  private appended = 0;
  private lastWasProgress = false;

  constructor(private readonly options: RunEventLogOptions<E> = {}) {}

  /** True once the run ended (until `reopen`). */
  get closed(): boolean {
    return this.ended;
  }

  /** Events appended so far, replaced and dropped ones included: the next event's sequence number. */
  get count(): number {
    return this.appended;
  }

  /** The replay: every event kept so far, in order. */
  get events(): readonly E[] {
    return this.kept;
  }

  /** Delivers an event to every listener and keeps it for the replay; ignored after the end. */
  append(event: E): void {
    if (this.ended) return;
    this.appended += 1;
    const progress = this.options.isProgress?.(event) ?? false;
    if (progress && this.lastWasProgress) this.kept[this.kept.length - 1] = event;
    else this.kept.push(event);
    this.lastWasProgress = progress;
    if (this.kept.length > (this.options.maxEvents ?? 100_000)) this.kept.splice(1, 1);
    for (const listener of [...this.listeners]) {
      try {
        listener.onEvent(event);
      } catch {
        // One broken subscriber must not stop the run or starve the others.
      }
    }
    if (this.options.isTerminal?.(event)) this.end();
  }

  /** No event follows: every listener gets `onEnd` and is dropped. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) {
      try {
        listener.onEnd?.();
      } catch {
        // As in `append`.
      }
    }
  }

  /** A run that can resume (a download) continues the same log: later events follow the old ones. */
  reopen(): void {
    this.ended = false;
  }

  /**
   * Replays the run so far, then delivers live events until the end (`onEnd`) or the returned
   * unsubscribe. Subscribing to an ended run replays it and calls `onEnd` at once.
   */
  subscribe(onEvent: (event: E) => void, onEnd?: () => void): () => void {
    for (const event of [...this.kept]) onEvent(event);
    if (this.ended) {
      onEnd?.();
      return () => {};
    }
    const listener = { onEvent, onEnd };
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
