/**
 * One signal per task that aborts with `parent`, through a single listener on `parent` however
 * many tasks are in flight. Handing the run's own signal to every generation and scoring task
 * hung one listener per task on it (a batch of 8 keeps 8 generations and 16 scorings in flight:
 * Node's MaxListenersExceededWarning past 10); a task's listeners now land on its own signal.
 */
export class AbortFanout {
  readonly #parent: AbortSignal;
  readonly #children = new Set<AbortController>();

  constructor(parent: AbortSignal) {
    this.#parent = parent;
    parent.addEventListener(
      "abort",
      () => {
        for (const child of this.#children) child.abort(parent.reason);
        this.#children.clear();
      },
      { once: true },
    );
  }

  /** Tasks holding a signal now (released ones are forgotten). */
  get size(): number {
    return this.#children.size;
  }

  /** A signal for one task; call `release` when the task ends so nothing keeps it. */
  child(): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    if (this.#parent.aborted) controller.abort(this.#parent.reason);
    else this.#children.add(controller);
    return { signal: controller.signal, release: () => this.#children.delete(controller) };
  }
}
