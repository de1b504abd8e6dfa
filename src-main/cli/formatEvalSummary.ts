import type { AccuracyResult } from "../../src-shared/contracts/evals.js";

/** One line per saved result: score, status, thinking, time, failure counts, result id. */
export function formatEvalSummary(results: AccuracyResult[], finished: { state: string }): string {
  const lines = results.map((result) => {
    const correct = result.questions.filter((question) => question.correct).length;
    const failures = new Map<string, number>();
    for (const question of result.questions) {
      if (question.failure_type)
        failures.set(question.failure_type, (failures.get(question.failure_type) ?? 0) + 1);
    }
    const why = [...failures].map(([type, count]) => `${type} ${count}`).join(", ");
    return (
      `${result.benchmark} (${result.variant}): ${correct}/${result.total} = ${(result.accuracy * 100).toFixed(1)}%` +
      `${result.status === "cancelled" ? " [cancelled, partial]" : ""}` +
      ` | thinking ${result.thinking ? "on" : "off"} | ${formatSeconds(result.timings.total_s)}` +
      `${why ? ` | ${why}` : ""} | ${result.result_id}`
    );
  });
  if (lines.length === 0) lines.push(`no result saved (run ${finished.state})`);
  return `${lines.join("\n")}\n`;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${Math.floor(seconds % 60)}s`
    : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}
