const labels: Record<string, string> = {
  humaneval: "HE",
  mbpp: "MBPP",
  mbpp_sanitized: "MBPP-S",
  livecodebench: "LCB",
  gsm8k: "GSM",
  mmlu: "MMLU",
  mmlu_pro: "MMLU-Pro",
  arc_challenge: "ARC",
  hellaswag: "HS",
  truthfulqa: "TQA",
  truthfulqa_mc1: "TQA",
  winogrande: "WG",
};

/** The short chip label of a benchmark id (`humaneval` → `HE`); unknown ids as they are. */
export function benchmarkLabel(benchmark: string): string {
  const key = benchmark.toLowerCase().replace(/[-\s]/g, "_");
  return labels[key] ?? benchmark.toUpperCase();
}

/** Order of chips in a row: the code suites first, then math, then multiple choice. */
export function benchmarkOrder(benchmark: string): number {
  const index = Object.keys(labels).indexOf(benchmark.toLowerCase());
  return index === -1 ? 100 : index;
}
