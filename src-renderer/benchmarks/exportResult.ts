import type { AccuracyResult, PerformanceResult } from "../../src-shared/contracts/dashboardProvisional.js";

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
    "sampling",
    "question_id",
    "correct",
    "expected",
    "extracted_answer",
    "pass_mode",
    "failure_type",
    "error",
    "time_s",
    "category",
  ];
  const rows = (result.questions ?? []).map((question) => [
    result.result_id,
    result.created_at,
    result.model_id,
    result.benchmark,
    result.variant,
    result.batch_size,
    result.sampling_profile,
    result.sampling,
    question.id,
    question.correct,
    question.expected,
    question.extracted_answer ?? question.extracted,
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
    "prompt_tokens",
    "generated_tokens",
    "batch_size",
    "pp_tps",
    "tg_tps",
    "ttft_ms",
  ];
  const rows = [
    ...result.single.map((test) => [
      result.result_id,
      result.created_at,
      result.model_id,
      "single",
      test.prompt_tokens,
      test.generated_tokens,
      1,
      test.pp_tps,
      test.tg_tps,
      test.ttft_ms,
    ]),
    ...(result.batch ?? []).map((test) => [
      result.result_id,
      result.created_at,
      result.model_id,
      "batch",
      test.prompt_tokens,
      "",
      test.batch_size,
      test.pp_tps,
      test.tg_tps,
      test.ttft_ms,
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
