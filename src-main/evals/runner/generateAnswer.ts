import type { EvalTarget, TargetRequest } from "./EvalTarget.js";
import type { Interval } from "./measureExclusiveSeconds.js";
import { errorMessage } from "../../base/describeError.js";

/** How one generation ended, with its own wall time (`span` in the clock's milliseconds). */
export type GenerationOutcome = { timeSeconds: number; span: Interval } & (
  { kind: "ok"; raw: string } | { kind: "error"; error: string } | { kind: "aborted"; raw: string }
);

/**
 * Runs one generation and never throws: a failure becomes an outcome, so one bad request
 * cannot take down the other slots. `request.signal` should be this request's own (the target
 * may hang listeners on it; `AbortFanout` hands them out). `clock` is in milliseconds.
 */
export async function generateAnswer(
  target: EvalTarget,
  request: Omit<TargetRequest, "messages"> & { messages: () => TargetRequest["messages"] },
  clock: () => number,
): Promise<GenerationOutcome> {
  const started = clock();
  const timing = (queueWaitSeconds = 0) => {
    const end = clock();
    const timeSeconds = Math.max(0, (end - started) / 1000 - queueWaitSeconds);
    return { timeSeconds, span: { start: started, end } };
  };
  try {
    const response = await target.generate({ ...request, messages: request.messages() });
    if (request.signal.aborted || response.finishReason === "cancelled") {
      return { kind: "aborted", raw: response.text, ...timing() };
    }
    return { kind: "ok", raw: response.text, ...timing(response.queueWaitSeconds) };
  } catch (error) {
    if (request.signal.aborted) return { kind: "aborted", raw: "", ...timing() };
    return { kind: "error", error: errorMessage(error, 500), ...timing() };
  }
}
