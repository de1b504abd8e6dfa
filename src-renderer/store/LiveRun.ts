import type { AccuracyEvent, PerformanceEvent } from "../../src-shared/contracts/dashboardProvisional.js";

export type RunKind = "accuracy" | "performance";
export type RunStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

/** What the dashboard shows about a run in progress, folded from its event stream. */
export interface LiveRun {
  kind: RunKind;
  runId: string;
  modelId: string;
  status: RunStatus;
  /** Benchmark (accuracy) or test (performance) currently running. */
  step: string | null;
  completed: number;
  total: number;
  correct: number;
  /** Running accuracy, 0..1; null before the first scored question. */
  accuracy: number | null;
  etaSeconds: number | null;
  error: string | null;
  startedAt: number;
  updatedAt: number;
  resultIds: string[];
}

export function newLiveRun(kind: RunKind, runId: string, modelId: string, now: number): LiveRun {
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
    startedAt: now,
    updatedAt: now,
    resultIds: [],
  };
}

const terminal: Record<string, RunStatus> = {
  completed: "completed",
  finished: "completed",
  done: "completed",
  run_completed: "completed",
  failed: "failed",
  error: "failed",
  run_failed: "failed",
  cancelled: "cancelled",
  run_cancelled: "cancelled",
};

export const isFinished = (run: LiveRun): boolean =>
  run.status === "completed" || run.status === "failed" || run.status === "cancelled";

function errorText(error: unknown): string | null {
  if (!error) return null;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" ? message : JSON.stringify(error);
}

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** Folds one progress event (accuracy or performance) into the run's view. */
export function applyRunEvent(run: LiveRun, event: AccuracyEvent | PerformanceEvent, now: number): LiveRun {
  const next: LiveRun = { ...run, updatedAt: now };
  const status = terminal[event.type];
  if (status) next.status = status;
  else if (next.status === "queued" && event.type !== "queued") next.status = "running";

  const record = event as Record<string, unknown>;
  const step = record.benchmark ?? record.test ?? record.phase;
  if (typeof step === "string") next.step = step;
  const completed = num(record.completed) ?? num(record.done) ?? num(record.index);
  const total = num(record.total);
  if (completed !== undefined) next.completed = completed;
  if (total !== undefined) next.total = total;
  const correct = num(record.correct);
  if (correct !== undefined) next.correct = correct;
  const accuracy = num(record.accuracy) ?? num(record.running_accuracy);
  if (accuracy !== undefined) next.accuracy = accuracy;
  else if (correct !== undefined && next.completed > 0) next.accuracy = correct / next.completed;

  const eta = num(record.eta_s) ?? num(record.eta_seconds);
  if (eta !== undefined) next.etaSeconds = eta;
  else if (next.completed > 0 && next.total > next.completed) {
    const perItem = (now - next.startedAt) / 1000 / next.completed;
    next.etaSeconds = Math.round(perItem * (next.total - next.completed));
  }
  if (next.status === "completed") {
    next.etaSeconds = 0;
    if (next.total > 0) next.completed = next.total;
  }

  const resultId = record.result_id;
  if (typeof resultId === "string" && !next.resultIds.includes(resultId))
    next.resultIds = [...next.resultIds, resultId];
  const resultIds = record.result_ids;
  if (Array.isArray(resultIds)) {
    for (const id of resultIds)
      if (typeof id === "string" && !next.resultIds.includes(id)) next.resultIds.push(id);
  }
  const error = errorText(record.error);
  if (error && (next.status === "failed" || event.type.includes("error"))) next.error = error;
  return next;
}
