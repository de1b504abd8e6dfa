import type { PerfEvent } from "../../src-shared/contracts/performance.js";
import type { PerformanceSingleTest } from "../../src-shared/contracts/results.js";
import type { EvalRunEvent } from "../../src-shared/contracts/evalQueue.js";
import { pickHeadlineTest } from "../../src-shared/contracts/pickHeadlineTest.js";

export type RunKind = "accuracy" | "performance";
/**
 * `interrupted`: the run's stream broke off without an end (Perch stopped or restarted mid-run,
 * which cancels it and stores what was done as cancelled), not a failure of the run itself.
 */
export type RunStatus = "queued" | "running" | "completed" | "failed" | "cancelled" | "interrupted";

/** What the dashboard shows about a run in progress, folded from its event stream. */
export interface LiveRun {
  kind: RunKind;
  runId: string;
  modelId: string;
  status: RunStatus;
  /** Benchmark (accuracy) or test / phase (performance) now running. */
  step: string | null;
  completed: number;
  total: number;
  correct: number;
  /** Running accuracy, 0..1; null before the first scored question. */
  accuracy: number | null;
  etaSeconds: number | null;
  error: string | null;
  /** The error's stable code, to say in words what happened and what to do. */
  errorCode: string | null;
  /** A finished performance run's numbers: its headline test (`pickHeadlineTest`), size named. */
  headline: { promptTokens: number; promptTps: number; generationTps: number; ttftMs: number } | null;
  /** Why the community upload a finished performance run asked for failed (the result is kept). */
  uploadError: string | null;
  startedAt: number;
  /** When the current step (benchmark) started: the base of the computed ETA. */
  stepStartedAt: number;
  updatedAt: number;
  resultIds: string[];
  /** An accuracy run's benchmarks, in the order they run (empty when not known). */
  steps: string[];
  /** Each finished benchmark of an accuracy run: what it scored and its result. */
  outcomes: StepOutcome[];
}

/** One benchmark of an accuracy run, as it finished (cancelled ones with the questions scored). */
export interface StepOutcome {
  benchmark: string;
  status: "completed" | "cancelled" | "failed";
  correct: number;
  total: number;
  accuracy: number;
  resultId: string | null;
}

export function newLiveRun(
  kind: RunKind,
  runId: string,
  modelId: string,
  now: number,
  steps: string[] = [],
): LiveRun {
  return {
    kind,
    runId,
    modelId,
    status: "queued",
    step: null,
    completed: 0,
    total: 0,
    correct: 0,
    accuracy: null,
    etaSeconds: null,
    error: null,
    errorCode: null,
    headline: null,
    uploadError: null,
    startedAt: now,
    stepStartedAt: now,
    updatedAt: now,
    resultIds: [],
    steps,
    outcomes: [],
  };
}

export const isFinished = (run: LiveRun): boolean =>
  run.status === "completed" ||
  run.status === "failed" ||
  run.status === "cancelled" ||
  run.status === "interrupted";

const withResult = (run: LiveRun, resultId: string | null): string[] =>
  resultId && !run.resultIds.includes(resultId) ? [...run.resultIds, resultId] : run.resultIds;

/** Seconds left at the pace of the current step so far. */
function paceEta(run: LiveRun, now: number): number | null {
  if (run.completed <= 0 || run.total <= run.completed)
    return run.total > 0 && run.completed >= run.total ? 0 : null;
  const perItem = (now - run.stepStartedAt) / 1000 / run.completed;
  return Math.round(perItem * (run.total - run.completed));
}

/** Folds one accuracy-run event into the run's view. */
export function applyEvalEvent(run: LiveRun, event: EvalRunEvent, now: number): LiveRun {
  const next: LiveRun = { ...run, updatedAt: now };
  switch (event.type) {
    case "run_queued":
      return { ...next, status: "queued" };
    case "run_started":
      return { ...next, status: "running", startedAt: now, stepStartedAt: now };
    case "benchmark_started":
      return {
        ...next,
        status: "running",
        step: event.benchmark,
        completed: 0,
        total: event.total,
        correct: 0,
        accuracy: null,
        etaSeconds: null,
        stepStartedAt: now,
      };
    case "thinking_detected":
      return { ...next, step: event.benchmark };
    case "question_done":
      return {
        ...next,
        status: "running",
        step: event.benchmark,
        completed: event.completed,
        total: event.total,
        correct: event.correct_count,
        accuracy: event.running_accuracy,
        etaSeconds: event.eta_s,
      };
    case "benchmark_finished":
      return {
        ...next,
        step: event.benchmark,
        // What was scored: a cancelled benchmark's result holds fewer questions than planned.
        completed: event.total,
        total: event.total,
        outcomes: [
          ...next.outcomes.filter((outcome) => outcome.benchmark !== event.benchmark),
          {
            benchmark: event.benchmark,
            status: event.status,
            correct: event.correct,
            total: event.total,
            accuracy: event.accuracy,
            resultId: event.result_id,
          },
        ],
        correct: event.correct,
        accuracy: event.accuracy,
        etaSeconds: 0,
        resultIds: withResult(next, event.result_id),
        error: event.error?.message ?? next.error,
        errorCode: event.error?.code ?? next.errorCode,
      };
    case "run_finished":
      return {
        ...next,
        status: event.state === "removed" ? "cancelled" : event.state,
        etaSeconds: 0,
        error: event.error?.message ?? next.error,
        errorCode: event.error?.code ?? next.errorCode,
      };
    default:
      return event satisfies never;
  }
}

/** Folds one performance-run event into the run's view (progress counts tests). */
export function applyPerfEvent(run: LiveRun, event: PerfEvent, now: number): LiveRun {
  const next: LiveRun = { ...run, updatedAt: now };
  switch (event.type) {
    case "started":
      return {
        ...next,
        status: "running",
        total: event.total_steps,
        completed: 0,
        startedAt: now,
        stepStartedAt: now,
      };
    case "phase":
      return { ...next, status: "running", step: event.phase };
    case "test_started": {
      const step = event.kind === "single" ? `${event.prompt_tokens} tok` : `×${event.batch_size ?? 1}`;
      return { ...next, status: "running", step, completed: event.step - 1, total: event.total_steps };
    }
    case "single_completed":
    case "batch_completed":
    case "test_skipped": {
      const done = { ...next, completed: event.step, total: event.total_steps };
      return { ...done, etaSeconds: paceEta(done, now) };
    }
    case "upload":
      return { ...next, step: "upload", resultIds: withResult(next, event.result_id) };
    case "completed":
      return {
        ...next,
        status: "completed",
        step: null,
        completed: next.total,
        etaSeconds: 0,
        resultIds: withResult(next, event.result.result_id),
        uploadError: event.result.upload.state === "failed" ? event.result.upload.error : null,
        headline: headlineOf(event.result.single),
      };
    case "failed":
      return { ...next, status: "failed", error: event.error.message, errorCode: event.error.code };
    case "cancelled":
      // Cancelled part-way with tests finished: they were saved (a cancelled result).
      return event.result
        ? {
            ...next,
            status: "cancelled",
            resultIds: withResult(next, event.result.result_id),
            headline: headlineOf(event.result.single),
          }
        : { ...next, status: "cancelled" };
    default:
      return event satisfies never;
  }
}

/** The card's headline speeds: the run's headline test (`pickHeadlineTest`), null without one. */
function headlineOf(single: readonly PerformanceSingleTest[]): LiveRun["headline"] {
  const test = pickHeadlineTest(single);
  return test
    ? {
        promptTokens: test.prompt_tokens,
        promptTps: test.pp_tps,
        generationTps: test.tg_tps,
        ttftMs: test.ttft_ms,
      }
    : null;
}
