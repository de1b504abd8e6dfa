import type {
  EvalRunEvent,
  EvalRunRequest,
  EvalRunState,
  EvalRunSummary,
  EvalRunTarget,
} from "../../../src-shared/contracts/evalQueue.js";
import type { ErrorCode } from "../../../src-shared/contracts/errors.js";
import { RunEventLog } from "../../base/RunEventLog.js";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the run stamps it with its id, sequence number and time. */
export type EvalRunEventBody = DistributiveOmit<EvalRunEvent, "run_id" | "seq" | "at">;

/** One run's mutable state, owned by the queue. */
export class EvalRunRecord {
  state: EvalRunState = "queued";
  readonly createdAt: Date;
  startedAt: Date | null = null;
  finishedAt: Date | null = null;
  progress: EvalRunSummary["progress"] = null;
  readonly resultIds: string[] = [];
  error: { code: ErrorCode; message: string } | null = null;
  readonly events = new RunEventLog<EvalRunEvent>();
  readonly controller = new AbortController();

  constructor(
    readonly id: string,
    readonly request: EvalRunRequest,
    readonly target: EvalRunTarget,
    private readonly now: () => Date,
  ) {
    this.createdAt = now();
  }

  get finished(): boolean {
    return this.state !== "queued" && this.state !== "running";
  }

  emit(body: EvalRunEventBody): void {
    this.events.append({
      ...body,
      run_id: this.id,
      seq: this.events.count,
      at: this.now().toISOString(),
    } as EvalRunEvent);
  }

  /** Final state: the `run_finished` event is sent and the stream ends. */
  finish(state: "completed" | "cancelled" | "failed" | "removed"): void {
    this.state = state;
    this.finishedAt = this.now();
    this.progress = null;
    this.emit({ type: "run_finished", state, error: this.error });
    this.events.end();
  }

  summary(position: number | null): EvalRunSummary {
    const request = this.request;
    return {
      run_id: this.id,
      state: this.state,
      target: this.target,
      benchmarks: request.benchmarks,
      sample_size: request.sample_size,
      variants: request.variants,
      batch_size: request.batch_size,
      sampling_profile: request.sampling_profile,
      thinking: request.thinking,
      position,
      created_at: this.createdAt.toISOString(),
      started_at: this.startedAt?.toISOString() ?? null,
      finished_at: this.finishedAt?.toISOString() ?? null,
      progress: this.progress,
      result_ids: [...this.resultIds],
      error: this.error,
    };
  }
}
