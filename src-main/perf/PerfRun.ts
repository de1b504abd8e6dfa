import type { PerfEvent, PerfRunInfo, PerfTargetInfo } from "../../src-shared/contracts/performance.js";
import { RunEventLog } from "../base/RunEventLog.js";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the run stamps it with its id, sequence number and time. */
export type PerfEventInput = DistributiveOmit<PerfEvent, "run_id" | "seq" | "at">;

const terminalTypes = new Set<PerfEvent["type"]>(["completed", "failed", "cancelled"]);

/** True for the event that ends a run's stream. */
export function isTerminalEvent(event: PerfEvent): boolean {
  return terminalTypes.has(event.type);
}

/**
 * One performance run's state and event log. Every event is kept, so a subscriber that
 * arrives late (a dashboard opened mid-run, an SSE reconnect) first gets the whole run so far,
 * then live events; events describe progress, they never drive the run.
 */
export class PerfRun {
  readonly startedAt = new Date().toISOString();
  private readonly events = new RunEventLog<PerfEvent>({ isTerminal: isTerminalEvent });
  private readonly controller = new AbortController();
  private stepValue = 0;
  private totalStepsValue = 0;
  private stateValue: PerfRunInfo["state"] = "running";
  private resultIdValue: string | null = null;

  constructor(
    readonly runId: string,
    readonly target: PerfTargetInfo,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get state(): PerfRunInfo["state"] {
    return this.stateValue;
  }

  get finished(): boolean {
    return this.stateValue !== "running";
  }

  /** Asks the run to stop; it ends with a `cancelled` event at its next step (or within one decode). */
  cancel(): void {
    if (!this.finished) this.controller.abort(new Error("performance run cancelled"));
  }

  emit(input: PerfEventInput): PerfEvent {
    const event = {
      ...input,
      run_id: this.runId,
      seq: this.events.count,
      at: new Date().toISOString(),
    } as PerfEvent;
    if ("step" in event) this.stepValue = event.step;
    if ("total_steps" in event) this.totalStepsValue = event.total_steps;
    if (event.type === "completed") this.resultIdValue = event.result.result_id;
    if (isTerminalEvent(event)) this.stateValue = event.type as PerfRunInfo["state"];
    // The log ends itself after the terminal event.
    this.events.append(event);
    return event;
  }

  /**
   * Replays every event so far, then forwards new ones; `onEnd` after the terminal event (at once
   * for a finished run). Returns an unsubscribe.
   */
  subscribe(listener: (event: PerfEvent) => void, onEnd?: () => void): () => void {
    return this.events.subscribe(listener, onEnd);
  }

  /** Every event so far (a copy). */
  history(): PerfEvent[] {
    return [...this.events.events];
  }

  info(): PerfRunInfo {
    return {
      run_id: this.runId,
      state: this.stateValue,
      target: this.target,
      started_at: this.startedAt,
      step: this.stepValue,
      total_steps: this.totalStepsValue,
      result_id: this.resultIdValue,
    };
  }
}
