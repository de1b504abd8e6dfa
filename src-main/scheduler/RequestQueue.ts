import { PerchError } from "../base/PerchError.js";

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

/**
 * The bounded FIFO of requests waiting for a free sequence. A full queue answers `queue_full`
 * (429) at once; an aborted waiter leaves the queue at once and rejects with `cancelled`.
 */
export class RequestQueue<T> {
  private readonly waiters: Waiter<T>[] = [];

  constructor(private readonly capacity: () => number) {}

  get length(): number {
    return this.waiters.length;
  }

  /** Waits for `handOff` to pass a value (a sequence) to this request. */
  wait(signal?: AbortSignal): Promise<T> {
    if (this.waiters.length >= this.capacity()) {
      return Promise.reject(
        new PerchError("queue_full", `The queue is full (${this.capacity()} waiting); retry later.`, {
          details: { queued: this.waiters.length },
        }),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.remove(waiter);
        reject(new PerchError("cancelled", "The request was cancelled while it waited in the queue."));
      };
      const waiter: Waiter<T> = {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Gives `value` to the oldest waiter; `false` when nobody waits. */
  handOff(value: T): boolean {
    const waiter = this.waiters.shift();
    if (!waiter) return false;
    waiter.cleanup();
    waiter.resolve(value);
    return true;
  }

  /** Rejects every waiter (the model is unloading). */
  rejectAll(error: unknown): void {
    for (const waiter of this.waiters.splice(0)) {
      waiter.cleanup();
      waiter.reject(error);
    }
  }

  private remove(waiter: Waiter<T>): void {
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
    waiter.cleanup();
  }
}
