import type { BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import type { Benchmark, BenchmarkItem } from "./Benchmark.js";
import { gsm8kBenchmark } from "./gsm8k/gsm8kBenchmark.js";
import { humanEvalBenchmark } from "./humaneval/humanEvalBenchmark.js";
import { liveCodeBenchBenchmark } from "./livecodebench/liveCodeBenchBenchmark.js";
import { mbppBenchmark } from "./mbpp/mbppBenchmark.js";
import { arcChallengeAdapter } from "./multipleChoice/arcChallengeAdapter.js";
import { createMultipleChoiceBenchmark } from "./multipleChoice/createMultipleChoiceBenchmark.js";
import { hellaswagAdapter } from "./multipleChoice/hellaswagAdapter.js";
import { mmluAdapter } from "./multipleChoice/mmluAdapter.js";
import { mmluProAdapter } from "./multipleChoice/mmluProAdapter.js";
import { truthfulqaMc1Adapter } from "./multipleChoice/truthfulqaMc1Adapter.js";
import { winograndeAdapter } from "./multipleChoice/winograndeAdapter.js";

/** The benchmark of a name. Exhaustive: a new name in the contract fails to compile here. */
export function resolveBenchmark(name: BenchmarkName): Benchmark<BenchmarkItem> {
  switch (name) {
    case "humaneval":
      return humanEvalBenchmark;
    case "mbpp":
      return mbppBenchmark;
    case "livecodebench":
      return liveCodeBenchBenchmark;
    case "gsm8k":
      return gsm8kBenchmark;
    case "mmlu":
      return createMultipleChoiceBenchmark(mmluAdapter);
    case "mmlu_pro":
      return createMultipleChoiceBenchmark(mmluProAdapter);
    case "arc_challenge":
      return createMultipleChoiceBenchmark(arcChallengeAdapter);
    case "hellaswag":
      return createMultipleChoiceBenchmark(hellaswagAdapter);
    case "truthfulqa_mc1":
      return createMultipleChoiceBenchmark(truthfulqaMc1Adapter);
    case "winogrande":
      return createMultipleChoiceBenchmark(winograndeAdapter);
    default:
      return name satisfies never;
  }
}
