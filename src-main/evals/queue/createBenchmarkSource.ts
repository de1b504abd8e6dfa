import { benchmarkNameSchema, type BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import { PerchError } from "../../base/PerchError.js";
import type { Benchmark } from "../benchmarks/Benchmark.js";
import { resolveBenchmark } from "../benchmarks/resolveBenchmark.js";
import type { DatasetReader } from "../datasets/DatasetReader.js";
import { toDatasetError } from "../datasets/toDatasetError.js";
import type { CodeSandbox } from "../scoring/SandboxRun.js";
import type { BenchmarkSource } from "./BenchmarkSource.js";

export interface BenchmarkSourceOptions {
  /** Benchmarks a run may ask for. Defaults to every `BenchmarkName`. */
  names?: readonly BenchmarkName[];
  /** The benchmark module of a name. Defaults to `resolveBenchmark`. */
  resolve?: (name: BenchmarkName) => Benchmark;
  /** Where dataset rows come from (the Hub cache under `<base>/datasets`). */
  datasets: DatasetReader;
  /** The code-check pool, asked for only when a code benchmark runs. Defaults to none (code benchmarks fail). */
  sandbox?: () => Promise<CodeSandbox>;
}

/**
 * Opens the benchmark modules (`benchmarks/*`) by name for the queue: the variant checked, the
 * items sampled, and the sandbox started when the benchmark runs code.
 */
export function createBenchmarkSource(options: BenchmarkSourceOptions): BenchmarkSource {
  return {
    names: () => options.names ?? benchmarkNameSchema.options,
    variants: (name) => (options.resolve ?? resolveBenchmark)(name).variants,
    async open(name, open) {
      const benchmark = (options.resolve ?? resolveBenchmark)(name);
      const variant = open.variant ?? benchmark.defaultVariant;
      if (!benchmark.variants.includes(variant)) {
        throw new PerchError(
          "invalid_request",
          `Benchmark '${name}' has no variant '${variant}'; it has ${benchmark.variants.join(", ")}.`,
          { param: "variants" },
        );
      }
      const reader = options.datasets;
      const items = await benchmark
        .loadItems({
          // `offline` (eval run --offline): the run reads the cache and never downloads.
          datasets: open.offline
            ? { rows: (source, signal) => reader.rows(source, signal, { offline: true }) }
            : reader,
          variant,
          limit: open.sampleSize > 0 ? open.sampleSize : undefined,
          since: open.since,
          until: open.until,
          signal: open.signal,
        })
        .catch((error: unknown) => {
          throw toDatasetError(error, name);
        });
      let sandbox: CodeSandbox | undefined;
      if (benchmark.needsSandbox) {
        if (!options.sandbox)
          throw new PerchError("internal_error", `Benchmark '${name}' needs the code sandbox.`);
        sandbox = await options.sandbox();
      }
      return { benchmark, items, variant, sandbox };
    },
  };
}
