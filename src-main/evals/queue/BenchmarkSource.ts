import type { BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import type { Benchmark, BenchmarkItem } from "../benchmarks/Benchmark.js";
import type { CodeSandbox } from "../scoring/SandboxRun.js";

/** A benchmark ready to run: the benchmark, its (sampled) questions and what scores them. */
export interface OpenedBenchmark<Item extends BenchmarkItem = BenchmarkItem> {
  benchmark: Benchmark<Item>;
  items: Item[];
  /** e.g. `full`, `sanitized`, `release_v6`, `zero_shot`; saved with the result. */
  variant: string;
  /** The code-check pool, when the benchmark `needsSandbox`. */
  sandbox?: CodeSandbox;
}

export interface OpenBenchmarkOptions {
  /** Questions to sample; 0 = all. */
  sampleSize: number;
  /** Unset = the benchmark's default variant. */
  variant?: string;
  /** LiveCodeBench date window (ISO days). */
  since?: string;
  until?: string;
  /** Read datasets from the cache only; never download. */
  offline?: boolean;
  signal: AbortSignal;
}

/** Where the queue finds benchmarks by name (the benchmark modules). */
export interface BenchmarkSource {
  /** Names a run may ask for now (a subset of `BenchmarkName` while some are unimplemented). */
  names(): readonly BenchmarkName[];
  /** A benchmark's dataset variants, so a run asking for another is refused when added. Defaults to no check. */
  variants?(name: BenchmarkName): readonly string[];
  /** Loads a benchmark's dataset (downloading it on first use) and samples its questions. */
  open(name: BenchmarkName, options: OpenBenchmarkOptions): Promise<OpenedBenchmark>;
}
