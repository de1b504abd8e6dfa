import type { FailureType, QuestionResult } from "../../../src-shared/contracts/accuracy.js";
import { boundedText } from "../scoring/boundedText.js";
import type { BenchmarkItem, ScoreContext } from "./Benchmark.js";

export type Verdict =
  | { correct: true; passMode: string; extracted: string | null }
  | { correct: false; failureType: FailureType; error: string | null; extracted: string | null };

/** Builds a valid per-question result from a verdict. */
export function questionResult(
  item: BenchmarkItem,
  response: string,
  verdict: Verdict,
  context: ScoreContext,
): QuestionResult {
  return {
    id: item.id,
    correct: verdict.correct,
    expected: item.expected,
    extracted: verdict.extracted,
    response,
    pass_mode: verdict.correct ? verdict.passMode : null,
    failure_type: verdict.correct ? null : verdict.failureType,
    error: verdict.correct || verdict.error === null ? null : boundedText(verdict.error),
    time_s: context.timeS ?? 0,
    category: item.category,
  };
}
