import type {
  EffectiveSampling,
  EvalBatchSize,
  EvalRunTarget,
  SamplingProfile,
  ThinkingMode,
} from "../../../src-shared/contracts/evalRuns.js";
import type { ScoredQuestion } from "../runner/RunnableBenchmark.js";
import type { BenchmarkRun } from "../runner/runBenchmark.js";

/** A saved accuracy result (extends the catalog's `AccuracyResultCore`). */
export interface AccuracyRunResult {
  result_id: string;
  created_at: string;
  model_id: string;
  benchmark: string;
  /** `correct / total`. */
  accuracy: number;
  /** Questions scored (cancelled ones excluded). */
  total: number;
  correct: number;
  /** A cancelled run keeps its partial result. */
  status: "completed" | "cancelled";
  run_id: string;
  target: EvalRunTarget;
  benchmark_variant: string | null;
  /** Questions the run planned (the sample). */
  planned: number;
  sample_size: number;
  batch_size: EvalBatchSize;
  sampling_profile: SamplingProfile;
  effective_sampling: EffectiveSampling;
  thinking_mode: ThinkingMode;
  thinking_used: boolean;
  max_tokens: number;
  time_s: number;
  /** Dataset order. */
  questions: ScoredQuestion[];
}

export interface AccuracyResultContext {
  resultId: string;
  createdAt: Date;
  runId: string;
  modelId: string;
  target: EvalRunTarget;
  benchmark: string;
  variant: string | null;
  sampleSize: number;
  batchSize: EvalBatchSize;
  thinking: ThinkingMode;
}

/** Builds the saved result of one benchmark of a run (completed or cancelled). */
export function toAccuracyResult(
  run: BenchmarkRun<ScoredQuestion>,
  context: AccuracyResultContext,
): AccuracyRunResult {
  return {
    result_id: context.resultId,
    created_at: context.createdAt.toISOString(),
    model_id: context.modelId,
    benchmark: context.benchmark,
    accuracy: run.accuracy,
    total: run.scored,
    correct: run.correct,
    status: run.status === "cancelled" ? "cancelled" : "completed",
    run_id: context.runId,
    target: context.target,
    benchmark_variant: context.variant,
    planned: run.total,
    sample_size: context.sampleSize,
    batch_size: context.batchSize,
    sampling_profile: run.samplingProfile,
    effective_sampling: run.effectiveSampling,
    thinking_mode: context.thinking,
    thinking_used: run.thinkingUsed,
    max_tokens: run.maxTokens,
    time_s: run.wallSeconds,
    questions: run.questions,
  };
}
