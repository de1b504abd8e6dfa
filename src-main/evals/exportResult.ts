import type { AccuracyResult } from "../../src-shared/contracts/evals.js";
import { accuracyResultCsv } from "./accuracyResultCsv.js";

export type ResultExportFormat = "json" | "csv";

export interface ResultExport {
  body: string;
  contentType: string;
  fileName: string;
}

/** An accuracy result as a downloadable file: the whole result as JSON, or one CSV row per question. */
export function exportResult(result: AccuracyResult, format: ResultExportFormat): ResultExport {
  const base = `${result.benchmark}-${result.result_id}`;
  switch (format) {
    case "json":
      return {
        body: `${JSON.stringify(result, null, 2)}\n`,
        contentType: "application/json",
        fileName: `${base}.json`,
      };
    case "csv":
      return {
        body: accuracyResultCsv(result),
        contentType: "text/csv; charset=utf-8",
        fileName: `${base}.csv`,
      };
    default:
      return format satisfies never;
  }
}
