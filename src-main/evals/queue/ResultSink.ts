import type { AccuracyRunResult } from "./toAccuracyResult.js";

/** Where finished results go: the persistent `ResultStore` has this method. */
export interface ResultSink {
  add(result: AccuracyRunResult): Promise<unknown>;
}

/** Keeps results in memory (tests, and until a persistent store is wired). */
export class InMemoryResultSink implements ResultSink {
  readonly results: AccuracyRunResult[] = [];

  async add(result: AccuracyRunResult): Promise<void> {
    this.results.push(result);
  }
}
