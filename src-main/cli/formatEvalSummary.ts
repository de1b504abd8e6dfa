import type { AccuracyResult } from "../../src-shared/contracts/accuracy.js";

/** Failures that are not the model's: the question has no verdict and leaves the accuracy. */
const unscored = new Set(["scoring_error", "generation_error"]);

/**
 * The score part of a summary line, shared by `eval run` and `eval score`:
 * `gsm8k (zero_shot): 8/12 = 66.7%`, then `| wrong_answer 3, no_answer 1` when some failed
 * (`scoring_error 2 (not counted)` for questions left out of the score, as `eval run` leaves them).
 */
export function formatScore(
  benchmark: string,
  variant: string | undefined,
  questions: { correct: boolean; failure_type: string | null }[],
  total = questions.filter((question) => !unscored.has(question.failure_type ?? "")).length,
): { score: string; failures: string } {
  const correct = questions.filter((question) => question.correct).length;
  const failures = new Map<string, number>();
  for (const question of questions) {
    if (!question.correct) {
      const type = question.failure_type ?? "unscorable";
      failures.set(type, (failures.get(type) ?? 0) + 1);
    }
  }
  const percent = total > 0 ? ((correct / total) * 100).toFixed(1) : "0.0";
  return {
    score: `${benchmark}${variant ? ` (${variant})` : ""}: ${correct}/${total} = ${percent}%`,
    failures: [...failures]
      .map(([type, count]) => `${type} ${count}${unscored.has(type) ? " (not counted)" : ""}`)
      .join(", "),
  };
}

/** One line per saved result: score, status, thinking, time, failure counts, result id. */
export function formatEvalSummary(results: AccuracyResult[], finished: { state: string }): string {
  const lines = results.map((result) => {
    const { score, failures } = formatScore(result.benchmark, result.variant, result.questions, result.total);
    return (
      `${score}${result.status === "cancelled" ? " [cancelled, partial]" : ""}` +
      ` | thinking ${result.thinking ? "on" : "off"} | ${formatSeconds(result.timings.total_s)}` +
      `${failures ? ` | ${failures}` : ""} | ${result.result_id}`
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
