/**
 * An append-only event stream that a subscriber can join at any time: it first receives every
 * event so far (replay), then the live ones, then the end. The UI may open a run's stream after
 * the run started (or finished) and still draws the whole history.
 */
export class ReplayEventLog<E> {
  private readonly events: E[] = [];
  private readonly listeners = new Set<{ onEvent: (event: E) => void; onEnd?: () => void }>();
  private ended = false;

  get closed(): boolean {
    return this.ended;
  }

  /** Every event so far, in order. */
  get all(): readonly E[] {
    return this.events;
  }

  append(event: E): void {
    if (this.ended) return;
    this.events.push(event);
    for (const listener of [...this.listeners]) listener.onEvent(event);
  }

  /** No event follows; subscribers get `onEnd` and are dropped. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    for (const listener of [...this.listeners]) listener.onEnd?.();
    this.listeners.clear();
  }

  /**
   * Replays synchronously, then delivers live events until `close` or the returned unsubscribe.
   * Synchronous replay means no event can slip between the replay and the live part.
   */
  subscribe(onEvent: (event: E) => void, onEnd?: () => void): () => void {
    for (const event of this.events) onEvent(event);
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
