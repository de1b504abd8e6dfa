/**
 * The events of one long-running job, for streaming: a late subscriber first gets a replay of
 * everything so far, then live events. Consecutive progress events collapse into the latest,
 * so the replay stays short however long the job ran.
 */
export class RunEventLog<E extends { type: string }> {
  private readonly events: E[] = [];
  private readonly listeners = new Set<(event: E) => void>();

  constructor(private readonly isProgress: (event: E) => boolean = (event) => event.type === "progress") {}

  push(event: E): void {
    const last = this.events[this.events.length - 1];
    if (last && this.isProgress(last) && this.isProgress(event)) this.events[this.events.length - 1] = event;
    else this.events.push(event);
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Replays the history into `listener`, then follows; returns a function that stops it. */
  subscribe(listener: (event: E) => void): () => void {
    for (const event of [...this.events]) listener(event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  history(): readonly E[] {
    return this.events;
  }
}
