import type { BenchmarkName } from "../../src-shared/contracts/accuracy.js";

/** Accuracy suites the run form offers, with their full sizes (null = depends on variant). */
export const accuracyBenchmarks = [
  { id: "humaneval", name: "HumanEval", size: 164 },
  { id: "mbpp", name: "MBPP", size: 500 },
  { id: "livecodebench", name: "LiveCodeBench", size: null },
  { id: "gsm8k", name: "GSM8K", size: 1319 },
  { id: "mmlu", name: "MMLU", size: null },
  { id: "mmlu_pro", name: "MMLU-Pro", size: null },
  { id: "arc_challenge", name: "ARC-Challenge", size: null },
  { id: "hellaswag", name: "HellaSwag", size: null },
  { id: "truthfulqa_mc1", name: "TruthfulQA MC1", size: null },
  { id: "winogrande", name: "Winogrande", size: null },
] as const satisfies readonly { id: BenchmarkName; name: string; size: number | null }[];

/**
 * What a community upload carries (`communityUploadPayloadSchema` in bench.ts), listed when the
 * server cannot build a preview for the chosen model; the server's preview shows the values.
 */
export const communityPayloadFields = [
  "schema_version",
  "submission_id",
  "owner_hash",
  "app_version",
  "os.platform",
  "os.version",
  "os.arch",
  "hardware.chip",
  "hardware.memory_bytes",
  "hardware.gpu_cores",
  "model.name",
  "model.quantization",
  "model.parameter_count",
  "model.file_sha256",
  "model.context_size",
  "results.single",
  "results.batch",
  "results.peak_memory_bytes",
] as const;
