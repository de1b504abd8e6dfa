import type { PerformanceResult } from "../contracts/performance.js";
import type { AccuracyResult } from "../contracts/accuracy.js";

/**
 * CSV files of benchmark results, written the same way by the admin API
 * (`GET …/results/:id/export?format=csv`) and by the dashboard's export buttons.
 */

type CsvValue = string | number | boolean | null | undefined | object;

/**
 * RFC 4180 quoting. Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR
 * first) gets a leading `'`: model output and ids are untrusted. Numbers are written as numbers.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "object" ? JSON.stringify(value) : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly CsvValue[][]): string {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

const accuracyColumns = [
  "result_id",
  "created_at",
  "model_id",
  "benchmark",
  "variant",
  "batch_size",
  "sampling_profile",
  "effective_sampling",
  "thinking",
  "status",
  "accuracy",
  "total",
  "question_id",
  "category",
  "correct",
  "pass_mode",
  "failure_type",
  "error",
  "expected",
  "extracted",
  "time_s",
];

/**
 * One row per question, the run's provenance repeated on each (batch size, variant, sampling
 * profile and effective sampling) so a filtered spreadsheet still says how it was measured.
 * Raw responses stay in the JSON export.
 */
export function accuracyResultCsv(result: AccuracyResult): string {
  const run = [
    result.result_id,
    result.created_at,
    result.model_id,
    result.benchmark,
    result.variant,
    result.batch_size,
    result.sampling_profile,
    result.effective_sampling,
    result.thinking,
    result.status,
    result.accuracy,
    result.total,
  ];
  return toCsv(
    accuracyColumns,
    result.questions.map((question) => [
      ...run,
      question.id,
      question.category,
      question.correct,
      question.pass_mode,
      question.failure_type,
      question.error,
      question.expected,
      question.extracted,
      question.time_s,
    ]),
  );
}

const performanceColumns = [
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

/** One row per single-request and batch test of a performance result. */
export function performanceResultCsv(result: PerformanceResult): string {
  const base = [result.result_id, result.created_at, result.model_id];
  return toCsv(performanceColumns, [
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
      null,
      test.wall_ms,
      test.peak_rss_bytes,
    ]),
  ]);
}
