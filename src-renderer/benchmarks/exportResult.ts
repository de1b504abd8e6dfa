import type { PerformanceResult } from "../../src-shared/contracts/bench.js";
import type { AccuracyResult } from "../../src-shared/contracts/evals.js";

const csvCell = (value: unknown): string => {
  const text =
    value === null || value === undefined
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const toCsv = (header: string[], rows: unknown[][]): string =>
  [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";

/**
 * One CSV line per question, each carrying the run's provenance (benchmark, variant, batch
 * size, sampling profile and effective sampling) so a line still says where it came from.
 */
export function accuracyResultToCsv(result: AccuracyResult): string {
  const header = [
    "result_id",
    "created_at",
    "model_id",
    "benchmark",
    "variant",
    "batch_size",
    "sampling_profile",
    "effective_sampling",
    "thinking",
    "question_id",
    "correct",
    "expected",
    "extracted",
    "pass_mode",
    "failure_type",
    "error",
    "time_s",
    "category",
  ];
  const rows = result.questions.map((question) => [
    result.result_id,
    result.created_at,
    result.model_id,
    result.benchmark,
    result.variant,
    result.batch_size,
    result.sampling_profile,
    result.effective_sampling,
    result.thinking,
    question.id,
    question.correct,
    question.expected,
    question.extracted,
    question.pass_mode,
    question.failure_type,
    question.error,
    question.time_s,
    question.category,
  ]);
  return toCsv(header, rows);
}

/** One CSV line per single-request and batch test of a performance result. */
export function performanceResultToCsv(result: PerformanceResult): string {
  const header = [
    "result_id",
    "created_at",
    "model_id",
    "test",
    "batch_size",
    "prompt_tokens",
    "generated_tokens",
    "pp_tps",
    "tg_tps",
    "ttft_ms",
    "tpot_ms",
    "e2e_ms",
    "peak_rss_bytes",
  ];
  const base = [result.result_id, result.created_at, result.model_id];
  const rows = [
    ...result.single.map((test) => [
      ...base,
      "single",
      1,
      test.prompt_tokens,
      test.generated_tokens,
      test.pp_tps,
      test.tg_tps,
      test.ttft_ms,
      test.tpot_ms,
      test.e2e_ms,
      test.peak_rss_bytes,
    ]),
    ...result.batch.map((test) => [
      ...base,
      "batch",
      test.batch_size,
      test.prompt_tokens,
      test.generated_tokens,
      test.aggregate_pp_tps,
      test.aggregate_tg_tps,
      test.mean_ttft_ms,
      "",
      test.wall_ms,
      test.peak_rss_bytes,
    ]),
  ];
  return toCsv(header, rows);
}

/** Saves text as a file through the browser (works in the Electron window too). */
export function saveFile(name: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
