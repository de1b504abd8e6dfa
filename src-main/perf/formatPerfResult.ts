import type { PerfUploadStatus, PerformanceResult } from "../../src-shared/contracts/performance.js";

type Row = Record<string, string>;

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
const mib = (bytes: number | null) => (bytes === null ? "-" : `${(bytes / 1024 ** 2).toFixed(0)} MiB`);

/** A plain-text table (the CLI prints results with it). */
export function renderTable(rows: Row[]): string {
  if (rows.length === 0) return "  (none)\n";
  const columns = Object.keys(rows[0]);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) => `  ${cells.map((cell, i) => cell.padStart(widths[i])).join("  ")}\n`;
  return (
    line(columns) +
    line(widths.map((width) => "-".repeat(width))) +
    rows.map((row) => line(columns.map((c) => row[c] ?? ""))).join("")
  );
}

/** One line saying what happened to the upload. */
export function describeUpload(status: PerfUploadStatus, resultId?: string): string {
  switch (status.state) {
    case "not_requested":
      return "not requested";
    case "skipped":
      return `skipped: ${status.reason}`;
    case "uploading":
      return "uploading";
    case "uploaded":
      return `uploaded${status.remote_id ? ` (${status.remote_id})` : ""}`;
    case "duplicate":
      return "already on the community site (duplicate)";
    case "failed":
      return `failed: ${status.error} (retry: Retry upload in the dashboard's performance history, or POST /admin/api/bench/results/${resultId ?? "<result id>"}/upload)`;
    default:
      status satisfies never;
      return "";
  }
}

/** The result as the CLI prints it: single tests, batch tests, skips and the upload status. */
export function formatPerfResult(result: PerformanceResult): string {
  const single = result.single.map((test) => ({
    prompt: String(test.prompt_tokens),
    generated: String(test.generated_tokens),
    "pp tok/s": fixed(test.pp_tps),
    "tg tok/s": fixed(test.tg_tps),
    "TTFT ms": fixed(test.ttft_ms),
    "TPOT ms": fixed(test.tpot_ms, 2),
    "e2e ms": fixed(test.e2e_ms, 0),
    "peak RSS": mib(test.peak_rss_bytes),
  }));
  const batch = result.batch.map((test) => ({
    batch: String(test.batch_size),
    "prompt each": String(test.prompt_tokens),
    "agg pp tok/s": fixed(test.aggregate_pp_tps),
    "agg tg tok/s": fixed(test.aggregate_tg_tps),
    "mean TTFT ms": fixed(test.mean_ttft_ms),
    "wall ms": fixed(test.wall_ms, 0),
  }));
  const parts = [
    `${result.model.name} (${result.model_id}) — ${result.model.quantization ?? "?"}, context ${result.model.context_size ?? "?"}, ${result.environment.backend ?? "remote"}, threads ${result.environment.threads ?? "?"}\n`,
    `\nSingle request\n${renderTable(single)}`,
  ];
  if (result.plan.batch_sizes.length > 0) parts.push(`\nConcurrent requests\n${renderTable(batch)}`);
  for (const skipped of result.skipped) {
    const what =
      skipped.kind === "single" ? `${skipped.prompt_tokens}-token prompt` : `batch of ${skipped.batch_size}`;
    parts.push(`skipped ${what}: ${skipped.reason}\n`);
  }
  if (result.environment.other_requests > 0) {
    parts.push(
      `warning: the model served ${result.environment.other_requests} other request(s) during the run; these numbers read low\n`,
    );
  }
  if (result.environment.experimental_features.length > 0) {
    parts.push(`experimental: ${result.environment.experimental_features.join(", ")}\n`);
  }
  parts.push(
    `\npeak memory ${mib(result.peak_rss_bytes)}; result ${result.result_id}; upload ${describeUpload(result.upload, result.result_id)}\n`,
  );
  return parts.join("");
}
