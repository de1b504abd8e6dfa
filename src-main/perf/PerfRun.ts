import type { PerfEvent, PerfRunInfo, PerfTargetInfo } from "../../src-shared/contracts/performance.js";

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
  private readonly events: PerfEvent[] = [];
  private readonly listeners = new Set<(event: PerfEvent) => void>();
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
      seq: this.events.length,
      at: new Date().toISOString(),
    } as PerfEvent;
    this.events.push(event);
    if ("step" in event) this.stepValue = event.step;
    if ("total_steps" in event) this.totalStepsValue = event.total_steps;
    if (event.type === "completed") this.resultIdValue = event.result.result_id;
    if (isTerminalEvent(event)) this.stateValue = event.type as PerfRunInfo["state"];
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a closed socket) must not stop the run.
      }
    }
    if (isTerminalEvent(event)) this.listeners.clear();
    return event;
  }

  /** Replays every event so far to `listener`, then forwards new ones; returns an unsubscribe. */
  subscribe(listener: (event: PerfEvent) => void): () => void {
    for (const event of [...this.events]) listener(event);
    if (this.finished) return () => undefined;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every event so far (a copy). */
  history(): PerfEvent[] {
    return [...this.events];
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
