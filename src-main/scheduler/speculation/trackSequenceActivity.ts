import type { LlamaContextSequence } from "node-llama-cpp";

export interface TrackedSequence {
  /** Stands in for the sequence; every call made through it is tracked. */
  sequence: LlamaContextSequence;
  /** Resolves once no call made through `sequence` is in flight (the draft model went quiet). */
  idle: () => Promise<void>;
}

/**
 * Wraps a draft sequence so the scheduler knows when a dropped `DraftSequenceTokenPredictor` has
 * really stopped. `dispose()` on the predictor only signals its background loop; one draft step
 * already in flight still lands in the draft sequence afterwards. A fresh predictor must not
 * start on that sequence before then, or it would be built on top of the old timeline.
 */
export function trackSequenceActivity(target: LlamaContextSequence): TrackedSequence {
  const pending = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    const settle = () => pending.delete(promise);
    promise.then(settle, settle);
    return promise;
  };
  const wrapIterator = (iterator: AsyncGenerator<unknown, unknown, unknown>) => ({
    next: (...args: [] | [unknown]) => track(iterator.next(...args)),
    return: (value?: unknown) => track(iterator.return(value)),
    throw: (error?: unknown) => track(iterator.throw(error)),
    [Symbol.asyncIterator]() {
      return this;
    },
  });
  const sequence = new Proxy(target, {
    get(object, property) {
      // Read with the real sequence as `this`: its getters and methods touch internal fields.
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (result instanceof Promise) return track(result);
        if (isAsyncGenerator(result)) return wrapIterator(result);
        return result;
      };
    },
  });
  const idle = async () => {
    // Two quiet turns of the event loop: a lock released by the last call may hand over to one
    // more queued call (the predictor's own `iterator.return()`) in between.
    for (let quietTurns = 0; quietTurns < 2;) {
      if (pending.size > 0) {
        quietTurns = 0;
        await Promise.allSettled([...pending]);
      } else {
        quietTurns += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  };
  return { sequence, idle };
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { next?: unknown }).next === "function" &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}
