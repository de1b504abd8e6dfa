import { maxQuestionErrorLength, type QuestionResult } from "../../../src-shared/contracts/accuracy.js";
import type { BenchmarkItem } from "../benchmarks/Benchmark.js";

/** The result of a question that got no verdict: its generation failed or the run was cancelled. */
export function unansweredResult(
  info: BenchmarkItem,
  why: {
    failureType: "generation_error" | "cancelled";
    error: string;
    rawResponse: string;
    timeSeconds: number;
  },
): QuestionResult {
  return {
    id: info.id,
    correct: false,
    expected: info.expected,
    extracted: null,
    response: why.rawResponse,
    pass_mode: null,
    failure_type: why.failureType,
    error: why.error.slice(0, maxQuestionErrorLength),
    time_s: why.timeSeconds,
    category: info.category,
  };
}
