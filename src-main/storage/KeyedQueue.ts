/**
 * Runs tasks one at a time per key (a file path): two writers of the same file in this process
 * never interleave, while different files proceed in parallel. Keys are dropped when idle.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/** The process-wide queue for file writes: every JsonFile and ResultStore shares it. */
export const fileWriteQueue = new KeyedQueue();
