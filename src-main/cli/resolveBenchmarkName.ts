import { benchmarkNameSchema, type BenchmarkName } from "../../src-shared/contracts/accuracy.js";
import { PerchError } from "../base/PerchError.js";

const names = benchmarkNameSchema.options;

/**
 * A benchmark name as a person types it: any case, `-` or space for `_` (`HumanEval`,
 * `MMLU-Pro`). An unknown name is refused with the closest known one suggested.
 */
export function resolveBenchmarkName(typed: string): BenchmarkName {
  const normalized = typed
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "_");
  const exact = names.find(
    (name) => name === normalized || name.replace(/_/g, "") === normalized.replace(/_/g, ""),
  );
  if (exact) return exact;
  const closest = names
    .map((name) => ({ name, distance: editDistance(normalized, name) }))
    .sort((a, b) => a.distance - b.distance)[0];
  const suggestion =
    closest && closest.distance <= Math.max(2, Math.floor(closest.name.length / 3))
      ? ` Did you mean "${closest.name}"?`
      : "";
  throw new PerchError(
    "invalid_request",
    `Unknown benchmark "${typed}".${suggestion} Known benchmarks: ${names.join(", ")}.`,
    { param: "benchmark" },
  );
}

/** Levenshtein distance with adjacent transpositions counted as one edit (`humaneavl`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}
