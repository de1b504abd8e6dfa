import type { AccuracyResult } from "../../../src-shared/contracts/accuracy.js";

/** Where finished results go: the persistent accuracy `ResultStore` has this method. */
export interface ResultSink {
  add(result: AccuracyResult): Promise<unknown>;
}

/** Keeps results in memory (tests, and until a persistent store is wired). */
export class InMemoryResultSink implements ResultSink {
  readonly results: AccuracyResult[] = [];

  async add(result: AccuracyResult): Promise<void> {
    this.results.push(result);
  }
}
