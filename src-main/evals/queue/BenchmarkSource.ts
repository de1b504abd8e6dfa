import type { RunnableBenchmark, ScoredQuestion } from "../runner/RunnableBenchmark.js";

/** A benchmark ready to run: its runner adapter and its (sampled) questions. */
export interface OpenedBenchmark<Item = unknown, Result extends ScoredQuestion = ScoredQuestion> {
  benchmark: RunnableBenchmark<Item, Result>;
  items: Item[];
  /** e.g. `sanitized`, `release_v6`; recorded with the result. Defaults to `null`. */
  variant?: string | null;
}

/** Where the queue finds benchmarks by name (the benchmark modules, adapted). */
export interface BenchmarkSource {
  /** Names a run may ask for. */
  names(): readonly string[];
  /** Loads a benchmark's dataset (downloading it on first use) and samples `sampleSize` questions (0 = all). */
  open(
    name: string,
    options: { sampleSize: number; signal: AbortSignal },
  ): Promise<OpenedBenchmark<unknown, ScoredQuestion>>;
}
