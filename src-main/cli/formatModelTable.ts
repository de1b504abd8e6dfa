import type { ModelRow } from "../../src-shared/contracts/models.js";
import { formatBytes } from "../../src-shared/text/formatBytes.js";
import { formatCount, formatTable } from "./formatTable.js";

const sourceBadges: Record<ModelRow["source"], string> = {
  hf: "HF",
  modelscope: "ModelScope",
  local: "local",
  unknown: "?",
};

/**
 * `perch models list`: one line per model with its facts, state and measured quality/speed; a
 * value measured on an earlier file of the model (before an update) is marked `*`, explained
 * below the table.
 */
export function formatModelTable(rows: ModelRow[]): string {
  const table = formatTable(
    ["NAME", "SIZE", "QUANT", "PARAMS", "SOURCE", "LOADED", "ACCURACY", "SPEED"],
    rows.map((row) => [
      row.id,
      row.missing ? "missing" : formatBytes(row.size_bytes),
      row.gguf?.quantization ?? "-",
      row.gguf?.parameter_count ? formatCount(row.gguf.parameter_count) : "-",
      sourceBadges[row.source],
      describeLoad(row.load),
      describeAccuracy(row.accuracy.best_by_benchmark),
      row.performance
        ? `${row.performance.tg_tps.toFixed(1)} tok/s gen, ${row.performance.pp_tps.toFixed(0)} tok/s prompt${earlierMark(row.performance)}`
        : "-",
    ]),
  );
  const marked = rows.some(
    (row) =>
      row.performance?.earlier_model_file ||
      Object.values(row.accuracy.best_by_benchmark).some((best) => best.earlier_model_file),
  );
  return marked
    ? `${table}* measured on an earlier file of the model (before it was updated or replaced)\n`
    : table;
}

const earlierMark = (value: { earlier_model_file: boolean }) => (value.earlier_model_file ? "*" : "");

function describeLoad(load: ModelRow["load"]): string {
  if (load.state === "unloaded") return load.pinned ? "no (pinned)" : "no";
  return `${load.state === "loaded" ? "yes" : "loading"}${load.pinned ? " (pinned)" : ""}`;
}

/** The two best-scored benchmarks, then how many more: `humaneval 45%, gsm8k 31% +2`. */
function describeAccuracy(byBenchmark: ModelRow["accuracy"]["best_by_benchmark"]): string {
  const scores = Object.entries(byBenchmark).sort(([a], [b]) => a.localeCompare(b));
  if (scores.length === 0) return "-";
  const shown = scores
    .slice(0, 2)
    .map(([benchmark, best]) => `${benchmark} ${(best.accuracy * 100).toFixed(0)}%${earlierMark(best)}`)
    .join(", ");
  return scores.length > 2 ? `${shown} +${scores.length - 2}` : shown;
}
