import type { ModelFile } from "../../../src-shared/contracts/results.js";
import type { SamplingSettings } from "../../../src-shared/contracts/settings.js";
import { PerchError } from "../../base/PerchError.js";
import { createLogger } from "../../base/createLogger.js";
import { describeError } from "../../base/describeError.js";
import type { GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";
import type { EvalTarget } from "../runner/EvalTarget.js";
import { createExternalTarget } from "../runner/createExternalTarget.js";
import { createLocalTarget } from "../runner/createLocalTarget.js";
import { resolveSampling, type ResolvedSampling } from "../runner/resolveSampling.js";
import { runBenchmark, thinkingTokenBudget, type RunBenchmarkOptions } from "../runner/runBenchmark.js";
import type { BenchmarkItem } from "../benchmarks/Benchmark.js";
import type { BenchmarkSource } from "./BenchmarkSource.js";
import type { EvalJournal } from "./EvalJournal.js";
import type { EvalRunRecord } from "./EvalRunRecord.js";
import type { ResultSink } from "./ResultSink.js";
import { toAccuracyResult } from "./toAccuracyResult.js";
import { createResultId } from "../../storage/createResultId.js";
import type { BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import type { ExternalTarget } from "../../../src-shared/contracts/evalQueue.js";

const log = createLogger("evals");

/** The engine pool's part a run needs (`EnginePool` has both methods). */
export interface EvalEngine {
  /** Loads the model (JIT) so its idle TTL can be suspended. */
  load(modelId: string): Promise<void>;
  /** Suspends idle unloading until the returned function is called. */
  suspendTtl(modelId: string): () => void;
}

export interface RunDependencies {
  /** The scheduler's `generate`. */
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
  engine: EvalEngine;
  benchmarks: BenchmarkSource;
  results: ResultSink;
  /** A model's saved sampling, for the `model_settings` profile. Defaults to none (target defaults). */
  modelSampling?: (modelId: string) => Promise<SamplingSettings | undefined> | SamplingSettings | undefined;
  /** Defaults to `createExternalTarget`. */
  createExternalTarget?: (target: ExternalTarget) => EvalTarget;
  /** Passed to every `runBenchmark` (tests set the clock and budgets). Defaults to `{}`. */
  runnerOptions?: Pick<
    RunBenchmarkOptions<BenchmarkItem>,
    "clock" | "thinkingMaxTokens" | "maxPendingScores" | "maxConsecutiveGenerationErrors"
  >;
  now: () => Date;
  /** Where answered questions are journaled, so a crash leaves a partial result. Defaults to none. */
  journal?: EvalJournal;
  /** The file a local model holds now, recorded on its results (`model_file`). Defaults to none. */
  modelFile?: (modelId: string) => Promise<ModelFile | undefined>;
}

/** Executes one run to its end (never throws): its benchmarks one after the other, for one target. */
export async function executeRun(run: EvalRunRecord, deps: RunDependencies): Promise<void> {
  const { request } = run;
  const signal = run.controller.signal;
  let release = () => {};
  try {
    let target: EvalTarget;
    let modelSampling: SamplingSettings | undefined;
    let modelFile: ModelFile | undefined;
    if (request.model_id !== undefined) {
      const modelId = request.model_id;
      await deps.engine.load(modelId);
      // Loaded first: suspending a model that is not in the pool would hold nothing.
      release = deps.engine.suspendTtl(modelId);
      // Read once it is loaded: the file whose answers the results hold.
      modelFile = await deps.modelFile?.(modelId);
      target = createLocalTarget({ modelId, generate: deps.generate });
      if (request.sampling_profile === "model_settings") modelSampling = await deps.modelSampling?.(modelId);
    } else {
      target = (deps.createExternalTarget ?? createExternalTarget)(request.external!);
    }
    const sampling = resolveSampling(request.sampling_profile, modelSampling);
    for (const name of request.benchmarks) {
      if (signal.aborted) break;
      const ok = await runOneBenchmark(run, deps, name, target, sampling, modelFile);
      if (!ok) break;
    }
  } catch (error) {
    if (!signal.aborted) {
      run.error = describeError(error);
      log.error({ runId: run.id, err: run.error.message }, "eval run failed");
    }
  } finally {
    release();
  }
  run.finish(run.error ? "failed" : signal.aborted ? "cancelled" : "completed");
}

/** Runs and saves one benchmark; false when the run must stop (failure). */
async function runOneBenchmark(
  run: EvalRunRecord,
  deps: RunDependencies,
  name: BenchmarkName,
  target: EvalTarget,
  sampling: ResolvedSampling,
  modelFile: ModelFile | undefined,
): Promise<boolean> {
  const { request } = run;
  const signal = run.controller.signal;
  const finished = (fields: {
    status: "completed" | "cancelled" | "failed";
    accuracy?: number;
    correct?: number;
    total?: number;
    thinking_used?: boolean;
    wall_s?: number;
    result_id?: string | null;
    error?: { code: PerchError["code"]; message: string } | null;
  }) =>
    run.emit({
      type: "benchmark_finished",
      benchmark: name,
      accuracy: 0,
      correct: 0,
      total: 0,
      thinking_used: request.thinking === "on",
      wall_s: 0,
      result_id: null,
      error: null,
      ...fields,
    });

  let opened;
  try {
    opened = await deps.benchmarks.open(name, {
      sampleSize: request.sample_size,
      variant: request.variants[name],
      since: request.since,
      until: request.until,
      offline: request.offline,
      signal,
    });
  } catch (error) {
    if (signal.aborted) {
      finished({ status: "cancelled" });
      return true;
    }
    run.error = describeError(error);
    finished({ status: "failed", error: run.error });
    return false;
  }

  run.progress = { benchmark: name, completed: 0, total: opened.items.length };
  const effectiveSampling = {
    ...target.effectiveSampling(sampling.sampling),
    max_tokens:
      request.thinking === "on"
        ? thinkingTokenBudget(opened.benchmark.maxTokens, deps.runnerOptions?.thinkingMaxTokens)
        : opened.benchmark.maxTokens,
  };
  run.emit({
    type: "benchmark_started",
    benchmark: name,
    total: opened.items.length,
    batch_size: request.batch_size,
    sampling_profile: sampling.profile,
    effective_sampling: effectiveSampling,
    thinking: request.thinking === "on",
  });
  void deps.journal?.startBenchmark({
    run_id: run.id,
    model_id: request.model_id ?? externalModelId(request.external!),
    benchmark: name,
    variant: opened.variant,
    batch_size: request.batch_size,
    sampling_profile: sampling.profile,
    effective_sampling: effectiveSampling,
    thinking: request.thinking === "on",
    started_at: deps.now().toISOString(),
    ...(modelFile ? { model_file: modelFile } : {}),
  });
  const result = await runBenchmark({
    ...deps.runnerOptions,
    benchmark: opened.benchmark,
    items: opened.items,
    sandbox: opened.sandbox,
    target,
    batchSize: request.batch_size,
    sampling,
    thinking: request.thinking,
    signal,
    onEvent: (event) => {
      if (event.type === "thinking_detected") {
        run.emit({ type: "thinking_detected", benchmark: name });
        void deps.journal?.append(run.id, { thinking: true });
        return;
      }
      void deps.journal?.append(run.id, { index: event.index, question: event.result });
      run.progress = { benchmark: name, completed: event.completed, total: event.total };
      run.emit({
        type: "question_done",
        benchmark: name,
        index: event.index,
        question_id: event.result.id,
        correct: event.result.correct,
        failure_type: event.result.failure_type,
        time_s: event.result.time_s,
        completed: event.completed,
        total: event.total,
        correct_count: event.correctCount,
        running_accuracy: event.runningAccuracy,
        eta_s: event.etaSeconds,
      });
    },
  });

  const summary = {
    accuracy: result.accuracy,
    correct: result.correct,
    total: result.scored,
    thinking_used: result.thinkingUsed,
    wall_s: result.timings.total_s,
  };
  if (result.status === "failed") {
    await deps.journal?.endBenchmark(run.id);
    run.error = { code: "generation_failed", message: result.error ?? "generation failed" };
    finished({ status: "failed", ...summary, error: run.error });
    return false;
  }
  let resultId: string | null = null;
  let error: { code: PerchError["code"]; message: string } | null = null;
  if (result.questions.length > 0) {
    const createdAt = deps.now();
    const saved = toAccuracyResult(result, {
      resultId: createResultId("acc", createdAt),
      createdAt,
      modelId: request.model_id ?? externalModelId(request.external!),
      benchmark: name,
      variant: opened.variant,
      batchSize: request.batch_size,
      modelFile,
    });
    try {
      await deps.results.add(saved);
      resultId = saved.result_id;
      run.resultIds.push(saved.result_id);
    } catch (caught) {
      error = describeError(caught);
      run.error = error;
      log.error({ runId: run.id, benchmark: name, err: error.message }, "could not save the accuracy result");
    }
  }
  await deps.journal?.endBenchmark(run.id);
  // Marked, not failed: the accuracy is over the questions that were scored, and health says
  // the sandbox failed; the questions themselves carry `scoring_error` / `generation_error`.
  const left = [
    result.unanswered > 0 ? `${result.unanswered} got no answer (the generation failed)` : "",
    result.unscored > 0 ? `${result.unscored} could not be scored (the scoring sandbox failed)` : "",
  ].filter(Boolean);
  const unscored =
    left.length > 0
      ? {
          code: result.unscored > 0 ? ("internal_error" as const) : ("generation_failed" as const),
          message: `Of ${result.questions.length} questions, ${left.join(" and ")}; the accuracy is over the other ${result.scored}.`,
        }
      : null;
  finished({ status: result.status, ...summary, result_id: resultId, error: error ?? unscored });
  return error === null;
}

/** External results are filed under `ext:<host>/<model>` so they never mix with a local model's. */
export function externalModelId(target: ExternalTarget): string {
  return `ext:${new URL(target.base_url).host}/${target.model}`;
}
