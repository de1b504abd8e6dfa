import type { AccuracyResult } from "../../src-shared/contracts/evals.js";

/** RFC 4180 quoting, and a leading `'` on text that a spreadsheet would run as a formula. */
function cell(value: string | number | boolean | null, text = false): string {
  if (value === null) return "";
  let out = String(value);
  if (text && /^[=+\-@\t\r]/.test(out)) out = `'${out}`;
  return /[",\r\n]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
}

const columns = [
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
] as const;

/**
 * One row per question, the run's provenance repeated on each (batch size, variant, sampling
 * profile and effective sampling) so a filtered spreadsheet still says how it was measured.
 * Raw responses stay in the JSON export.
 */
export function accuracyResultCsv(result: AccuracyResult): string {
  const run = [
    cell(result.result_id),
    cell(result.created_at),
    cell(result.model_id, true),
    cell(result.benchmark),
    cell(result.variant, true),
    cell(result.batch_size),
    cell(result.sampling_profile),
    cell(JSON.stringify(result.effective_sampling)),
    cell(result.thinking),
    cell(result.status),
    cell(result.accuracy),
    cell(result.total),
  ];
  const rows = result.questions.map((question) =>
    [
      ...run,
      cell(question.id, true),
      cell(question.category, true),
      cell(question.correct),
      cell(question.pass_mode),
      cell(question.failure_type),
      cell(question.error, true),
      cell(question.expected, true),
      cell(question.extracted, true),
      cell(question.time_s),
    ].join(","),
  );
  return `${[columns.join(","), ...rows].join("\r\n")}\r\n`;
}
