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
] as const;

export const batchSizeChoices = [1, 2, 4, 8, 16, 32] as const;
export const promptLengthChoices = [128, 512, 1024, 4096, 8192, 16384, 32768] as const;
export const concurrencyChoices = [2, 4, 8] as const;

/**
 * What a community upload carries (issue 6), shown when the server cannot produce a preview for
 * the chosen model; the server's own preview lists the actual values.
 */
export const communityPayloadFields = [
  "chip",
  "cpu",
  "memory_bytes",
  "gpu_cores",
  "os",
  "app_version",
  "model_name",
  "quantization",
  "parameter_count",
  "gguf_sha256",
  "context_size",
  "pp_tps",
  "tg_tps",
  "ttft_ms",
  "peak_memory_bytes",
  "batch_results",
  "owner_hash",
] as const;
