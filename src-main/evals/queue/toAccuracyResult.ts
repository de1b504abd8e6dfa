import type { AccuracyResult, BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import type { ModelFile } from "../../../src-shared/contracts/results.js";
import type { BenchmarkRun } from "../runner/runBenchmark.js";

export interface AccuracyResultContext {
  resultId: string;
  createdAt: Date;
  /** The local model id, or `ext:<host>/<model>` for an external target. */
  modelId: string;
  benchmark: BenchmarkName;
  variant: string;
  batchSize: number;
  /** The local model's file (absent for an external target). */
  modelFile?: ModelFile;
}

/** The saved result of one benchmark of a run (completed, or cancelled and partial). */
export function toAccuracyResult(run: BenchmarkRun, context: AccuracyResultContext): AccuracyResult {
  return {
    result_id: context.resultId,
    created_at: context.createdAt.toISOString(),
    model_id: context.modelId,
    benchmark: context.benchmark,
    variant: context.variant,
    accuracy: run.accuracy,
    total: run.scored,
    batch_size: context.batchSize,
    sampling_profile: run.samplingProfile,
    effective_sampling: run.effectiveSampling,
    thinking: run.thinkingUsed,
    status: run.status,
    questions: run.questions,
    timings: run.timings,
    ...(context.modelFile ? { model_file: context.modelFile } : {}),
  };
}
