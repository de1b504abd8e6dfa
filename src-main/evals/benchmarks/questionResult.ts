import {
  maxQuestionAttempts,
  maxQuestionOutputLength,
  type FailureType,
  type QuestionAttempt,
  type QuestionResult,
} from "../../../src-shared/contracts/accuracy.js";
import { truncateMiddle } from "../../../src-shared/text/truncateMiddle.js";
import { boundedText } from "../scoring/boundedText.js";
import type { BenchmarkItem, ScoreContext } from "./Benchmark.js";

/** What a code benchmark ran to reach a verdict; text benchmarks leave both out. */
interface VerdictEvidence {
  /** Every candidate run, in order. */
  attempts?: QuestionAttempt[];
  /** The whole output of the check the failure is reported from. */
  testOutput?: string | null;
}

export type Verdict =
  | ({ correct: true; passMode: string; extracted: string | null } & VerdictEvidence)
  | ({
      correct: false;
      failureType: FailureType;
      error: string | null;
      extracted: string | null;
    } & VerdictEvidence);

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
    ...(verdict.attempts ? { attempts: verdict.attempts.slice(0, maxQuestionAttempts) } : {}),
    ...(verdict.testOutput !== undefined
      ? {
          test_output:
            verdict.correct || verdict.testOutput === null
              ? null
              : truncateMiddle(verdict.testOutput, maxQuestionOutputLength),
        }
      : {}),
  };
}
