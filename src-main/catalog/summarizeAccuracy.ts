import {
  isEarlierModelFile,
  type AccuracyPoint,
  type AccuracyResultCore,
  type AccuracySummary,
  type ModelFile,
} from "../../src-shared/contracts/results.js";

/** The empty summary of a model without accuracy results. */
export const emptyAccuracySummary: AccuracySummary = { latest: null, best: null, best_by_benchmark: {} };

/**
 * Latest, best (highest accuracy; the newer result wins a tie) and best per benchmark of one
 * model's completed accuracy results; each marked when it measured another file than `current`.
 */
export function summarizeAccuracy(all: readonly AccuracyResultCore[], current?: ModelFile): AccuracySummary {
  // A partial (cancelled) run of 10 questions must not become the model's best score.
  const results = all.filter((result) => result.status === undefined || result.status === "completed");
  if (results.length === 0) return structuredClone(emptyAccuracySummary);
  const points: AccuracyPoint[] = results.map((result) => ({
    result_id: result.result_id,
    benchmark: result.benchmark,
    accuracy: result.accuracy,
    created_at: result.created_at,
    earlier_model_file: isEarlierModelFile(result.model_file, current),
  }));
  const newer = (a: AccuracyPoint, b: AccuracyPoint) =>
    a.created_at > b.created_at || (a.created_at === b.created_at && a.result_id > b.result_id);
  const better = (a: AccuracyPoint, b: AccuracyPoint) =>
    a.accuracy > b.accuracy || (a.accuracy === b.accuracy && newer(a, b));
  let latest = points[0];
  let best = points[0];
  const byBenchmark = new Map<string, AccuracyPoint>();
  for (const point of points) {
    if (newer(point, latest)) latest = point;
    if (better(point, best)) best = point;
    const current = byBenchmark.get(point.benchmark);
    if (!current || better(point, current)) byBenchmark.set(point.benchmark, point);
  }
  return {
    latest,
    best,
    best_by_benchmark: Object.fromEntries(
      [...byBenchmark.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([benchmark, point]) => [
          benchmark,
          {
            accuracy: point.accuracy,
            result_id: point.result_id,
            created_at: point.created_at,
            earlier_model_file: point.earlier_model_file,
          },
        ]),
    ),
  };
}
