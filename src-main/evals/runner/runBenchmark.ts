import crypto from "node:crypto";
import type {
  EffectiveSampling,
  SamplingProfile,
  ThinkingMode,
} from "../../../src-shared/contracts/evalRuns.js";
import { createLogger } from "../../core/createLogger.js";
import type { EvalTarget } from "./EvalTarget.js";
import type { RunnableBenchmark, ScoredQuestion, Unanswered } from "./RunnableBenchmark.js";
import { ScoringLane } from "./ScoringLane.js";
import { generateAnswer, type GenerationOutcome } from "./generateAnswer.js";
import { resolveSampling, type ResolvedSampling } from "./resolveSampling.js";
import { hasThinking, splitThinking } from "./splitThinking.js";

const log = createLogger("evals");

export interface RunBenchmarkOptions<Item, Result extends ScoredQuestion> {
  benchmark: RunnableBenchmark<Item, Result>;
  /** The questions, in dataset order (results come back in this order). */
  items: readonly Item[];
  target: EvalTarget;
  /** Generations kept in flight. Defaults to `1`. */
  batchSize?: number;
  /** Defaults to `resolveSampling("deterministic")`. */
  sampling?: ResolvedSampling;
  /** Defaults to `"auto"` (probe the first batch with thinking off). */
  thinking?: ThinkingMode;
  /** Cancels the run: in-flight generations abort, queued items are dropped, scoring stops. */
  signal?: AbortSignal;
  /** Progress; called synchronously, in completion order. */
  onEvent?: (event: RunnerEvent<Result>) => void;
  /** Scoring tasks in flight before a finished slot waits to refill. Defaults to `2 × batchSize`. */
  maxPendingScores?: number;
  /** Token budget per question with thinking on (at least the benchmark's own). Defaults to `8192`. */
  thinkingMaxTokens?: number;
  /** Failed generations in a row that fail the benchmark (the target is down). Defaults to `8`. */
  maxConsecutiveGenerationErrors?: number;
  /** Milliseconds clock for timings. Defaults to `performance.now`. */
  clock?: () => number;
}

export type RunnerEvent<Result> =
  | { type: "thinking_detected" }
  | {
      type: "question_done";
      /** Dataset position. */
      index: number;
      result: Result;
      completed: number;
      total: number;
      correctCount: number;
      runningAccuracy: number;
      etaSeconds: number | null;
    };

export interface BenchmarkRun<Result> {
  status: "completed" | "cancelled" | "failed";
  /** Why it failed; null otherwise. */
  error: string | null;
  /** Dataset order. Questions never started (cancelled, failed runs) are absent. */
  questions: Result[];
  /** Questions planned. */
  total: number;
  /** Questions with a verdict (not cancelled). */
  scored: number;
  correct: number;
  /** `correct / scored`; 0 when nothing was scored. */
  accuracy: number;
  thinkingUsed: boolean;
  /** Per-question token budget in effect at the end. */
  maxTokens: number;
  samplingProfile: SamplingProfile;
  effectiveSampling: EffectiveSampling;
  wallSeconds: number;
}

/**
 * Runs one benchmark against a target with refill-on-completion: up to `batchSize` generations
 * are in flight and a finished slot takes the next question at once, so the run never waits for
 * its slowest request. Answers go to scoring without blocking the slot. With thinking `auto` the
 * first batch is a probe: if any output reasons although thinking was off, thinking is switched
 * on and the probe questions rerun first.
 */
export async function runBenchmark<Item, Result extends ScoredQuestion>(
  options: RunBenchmarkOptions<Item, Result>,
): Promise<BenchmarkRun<Result>> {
  const { benchmark, items, target } = options;
  const clock = options.clock ?? (() => performance.now());
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 1));
  const sampling = options.sampling ?? resolveSampling("deterministic");
  const mode = options.thinking ?? "auto";
  const thinkingTokens = Math.max(benchmark.maxTokens, options.thinkingMaxTokens ?? 8192);
  const maxErrors = options.maxConsecutiveGenerationErrors ?? 8;
  const lane = new ScoringLane(options.maxPendingScores ?? batchSize * 2);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const runTag = crypto.randomUUID().slice(0, 8);
  const started = clock();
  const total = items.length;
  const results: Array<Result | undefined> = new Array(total);
  let thinking = mode === "on";
  let completed = 0;
  let scored = 0;
  let correct = 0;
  let errorsInARow = 0;
  let failure: string | null = null;
  let attempt = 0;

  const record = (index: number, result: Result) => {
    results[index] = result;
    completed += 1;
    if (result.failure_type !== "cancelled") scored += 1;
    if (result.correct) correct += 1;
    const elapsed = (clock() - started) / 1000;
    options.onEvent?.({
      type: "question_done",
      index,
      result,
      completed,
      total,
      correctCount: correct,
      runningAccuracy: scored === 0 ? 0 : correct / scored,
      etaSeconds: completed === 0 ? null : (elapsed / completed) * (total - completed),
    });
  };
  const unanswered = (index: number, why: Unanswered) => benchmark.unanswered(items[index], index, why);

  const generate = (index: number, think: boolean, generationSignal: AbortSignal) =>
    generateAnswer(
      target,
      {
        requestId: `eval-${runTag}-${index}-${attempt++}`,
        messages: () => benchmark.buildMessages(items[index]),
        sampling: sampling.sampling,
        maxTokens: think ? thinkingTokens : benchmark.maxTokens,
        thinking: think,
        signal: generationSignal,
      },
      clock,
    );

  // Records a generation's outcome; waits only when the scoring lane is full.
  const settle = async (index: number, outcome: GenerationOutcome): Promise<void> => {
    const timeSeconds = outcome.timeSeconds;
    if (outcome.kind === "aborted" || signal.aborted) {
      const raw = outcome.kind === "error" ? "" : outcome.raw;
      record(
        index,
        unanswered(index, { failureType: "cancelled", error: "cancelled", rawResponse: raw, timeSeconds }),
      );
      return;
    }
    if (outcome.kind === "error") {
      errorsInARow += 1;
      record(
        index,
        unanswered(index, {
          failureType: "generation_error",
          error: outcome.error,
          rawResponse: "",
          timeSeconds,
        }),
      );
      if (errorsInARow >= maxErrors && failure === null) {
        failure = `${errorsInARow} generations failed in a row; last error: ${outcome.error}`;
        stop.abort(new Error(failure));
      }
      return;
    }
    errorsInARow = 0;
    const raw = outcome.raw;
    await lane.submit(async () => {
      if (signal.aborted) {
        record(
          index,
          unanswered(index, { failureType: "cancelled", error: "cancelled", rawResponse: raw, timeSeconds }),
        );
        return;
      }
      let result: Result;
      try {
        result = await benchmark.score(items[index], {
          response: splitThinking(raw).answer,
          rawResponse: raw,
          signal,
        });
      } catch (error) {
        const cancelled = signal.aborted;
        if (!cancelled)
          log.error({ benchmark: benchmark.name, index, err: (error as Error).message }, "scoring failed");
        result = unanswered(index, {
          failureType: cancelled ? "cancelled" : "generation_error",
          error: cancelled ? "cancelled" : `scoring failed: ${(error as Error).message}`,
          rawResponse: raw,
          timeSeconds,
        });
      }
      record(index, { ...result, time_s: timeSeconds });
    });
  };

  let queue = items.map((_, index) => index);
  if (mode === "auto" && total > 0) {
    const probe = queue.slice(0, Math.min(batchSize, total));
    const probeStop = new AbortController();
    const probeSignal = AbortSignal.any([signal, probeStop.signal]);
    let detected = false;
    const outcomes = await Promise.all(
      probe.map(async (index) => {
        const outcome = await generate(index, false, probeSignal);
        if (outcome.kind === "ok" && hasThinking(outcome.raw) && !detected) {
          detected = true;
          // The probe reruns anyway: stop the rest of it now instead of waiting for it.
          probeStop.abort(new Error("thinking detected"));
        }
        return outcome;
      }),
    );
    if (detected && !signal.aborted) {
      log.warn(
        { benchmark: benchmark.name },
        "model reasons with thinking off: switching thinking on, rerunning the probe",
      );
      thinking = true;
      options.onEvent?.({ type: "thinking_detected" });
    } else {
      for (const [position, index] of probe.entries()) await settle(index, outcomes[position]);
      queue = queue.slice(probe.length);
    }
  }

  let next = 0;
  const slot = async () => {
    while (!signal.aborted && next < queue.length) {
      const index = queue[next++];
      await settle(index, await generate(index, thinking, signal));
    }
  };
  await Promise.all(Array.from({ length: Math.min(batchSize, queue.length) }, slot));
  await lane.drain();

  const questions = results.filter((result): result is Result => result !== undefined);
  return {
    status: failure !== null ? "failed" : options.signal?.aborted ? "cancelled" : "completed",
    error: failure,
    questions,
    total,
    scored,
    correct,
    accuracy: scored === 0 ? 0 : correct / scored,
    thinkingUsed: thinking,
    maxTokens: thinking ? thinkingTokens : benchmark.maxTokens,
    samplingProfile: sampling.profile,
    effectiveSampling: target.effectiveSampling(sampling.sampling),
    wallSeconds: (clock() - started) / 1000,
  };
}
