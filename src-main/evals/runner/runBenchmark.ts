import crypto from "node:crypto";
import type {
  AccuracyTimings,
  EffectiveSampling,
  QuestionResult,
  SamplingProfile,
} from "../../../src-shared/contracts/accuracy.js";
import type { ThinkingMode } from "../../../src-shared/contracts/evalQueue.js";
import type { Benchmark, BenchmarkItem } from "../benchmarks/Benchmark.js";
import type { CodeSandbox } from "../scoring/SandboxRun.js";
import { createLogger } from "../../base/createLogger.js";
import { AbortFanout } from "./AbortFanout.js";
import type { EvalTarget } from "./EvalTarget.js";
import { ScoringLane } from "./ScoringLane.js";
import { generateAnswer, type GenerationOutcome } from "./generateAnswer.js";
import { measureExclusiveSeconds, type Interval } from "./measureExclusiveSeconds.js";
import { resolveSampling, type ResolvedSampling } from "./resolveSampling.js";
import { splitResponse } from "./splitResponse.js";
import { hasThinking } from "./splitThinking.js";
import { unansweredResult } from "./unansweredResult.js";
import { errorMessage } from "../../base/describeError.js";

const log = createLogger("evals");

export interface RunBenchmarkOptions<Item extends BenchmarkItem> {
  benchmark: Benchmark<Item>;
  /** The questions, in dataset order (results come back in this order). */
  items: readonly Item[];
  target: EvalTarget;
  /** Runs the code checks of a benchmark that `needsSandbox`. Defaults to none (such a benchmark fails). */
  sandbox?: CodeSandbox;
  /** Generations kept in flight. Defaults to `1`. */
  batchSize?: number;
  /** Defaults to `resolveSampling("deterministic")`. */
  sampling?: ResolvedSampling;
  /** Defaults to `"auto"` (probe the first batch with thinking off). */
  thinking?: ThinkingMode;
  /** Cancels the run: in-flight generations abort, queued items are dropped, scoring stops. */
  signal?: AbortSignal;
  /** Progress; called synchronously, in completion order. */
  onEvent?: (event: RunnerEvent) => void;
  /** Scoring tasks in flight before a finished slot waits to refill. Defaults to `2 × batchSize`. */
  maxPendingScores?: number;
  /** Token budget per question with thinking on (at least the benchmark's own). Defaults to `8192`. */
  thinkingMaxTokens?: number;
  /** Failed generations in a row that fail the benchmark (the target is down). Defaults to `8`. */
  maxConsecutiveGenerationErrors?: number;
  /** Milliseconds clock for timings. Defaults to `performance.now`. */
  clock?: () => number;
}

export type RunnerEvent =
  | { type: "thinking_detected" }
  | {
      type: "question_done";
      /** Dataset position. */
      index: number;
      result: QuestionResult;
      completed: number;
      total: number;
      correctCount: number;
      runningAccuracy: number;
      etaSeconds: number | null;
    };

export interface BenchmarkRun {
  status: "completed" | "cancelled" | "failed";
  /** Why it failed; null otherwise. */
  error: string | null;
  /** Dataset order. Questions never started (cancelled, failed runs) are absent. */
  questions: QuestionResult[];
  /** Questions planned. */
  total: number;
  /** Questions with a verdict (not cancelled, not a `scoring_error` or `generation_error`). */
  scored: number;
  /**
   * Questions the scoring sandbox failed to judge (`scoring_error`, after a retry on a fresh
   * sandbox): not the model's fault, so they are left out of `scored` and the accuracy.
   */
  unscored: number;
  /**
   * Questions that got no answer because the generation failed (`generation_error`: an
   * unreachable endpoint, an engine error, a prompt over the context): no answer was judged, so
   * they are left out of `scored` and the accuracy too. A benchmark where no question got an
   * answer fails.
   */
  unanswered: number;
  correct: number;
  /** `correct / scored`; 0 when nothing was scored. */
  accuracy: number;
  thinkingUsed: boolean;
  samplingProfile: SamplingProfile;
  /** What was sent, `max_tokens` (the per-question budget at the end) included. */
  effectiveSampling: EffectiveSampling;
  timings: AccuracyTimings;
}

/** Tokens per question with thinking on: reasoning needs far more room than the answer. */
export function thinkingTokenBudget(answerTokens: number, thinkingMaxTokens = 8192): number {
  return Math.max(answerTokens, thinkingMaxTokens);
}

/**
 * Runs one benchmark against a target with refill-on-completion: up to `batchSize` generations
 * are in flight and a finished slot takes the next question at once, so the run never waits for
 * its slowest request. Answers go to scoring without blocking the slot. With thinking `auto` the
 * first batch is a probe: if any output reasons although thinking was off, thinking is switched
 * on and the probe questions rerun first.
 */
export async function runBenchmark<Item extends BenchmarkItem>(
  options: RunBenchmarkOptions<Item>,
): Promise<BenchmarkRun> {
  const { benchmark, items, target } = options;
  const clock = options.clock ?? (() => performance.now());
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 1));
  const sampling = options.sampling ?? resolveSampling("deterministic");
  const mode = options.thinking ?? "auto";
  const thinkingTokens = thinkingTokenBudget(benchmark.maxTokens, options.thinkingMaxTokens);
  const maxErrors = options.maxConsecutiveGenerationErrors ?? 8;
  const lane = new ScoringLane(options.maxPendingScores ?? batchSize * 2);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const runTag = crypto.randomUUID().slice(0, 8);
  const started = clock();
  const total = items.length;
  const results: Array<QuestionResult | undefined> = new Array(total);
  const generationSpans: Interval[] = [];
  const scoringSpans: Interval[] = [];
  let thinking = mode === "on";
  let completed = 0;
  let scored = 0;
  let unscored = 0;
  let unanswered = 0;
  let lastGenerationError = "";
  let correct = 0;
  let errorsInARow = 0;
  let failure: string | null = null;
  let attempt = 0;

  const fail = (message: string) => {
    if (failure !== null) return;
    failure = message;
    stop.abort(new Error(message));
  };
  const record = (index: number, result: QuestionResult) => {
    results[index] = result;
    completed += 1;
    if (result.failure_type === "scoring_error") unscored += 1;
    else if (result.failure_type === "generation_error") unanswered += 1;
    else if (result.failure_type !== "cancelled") scored += 1;
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
      etaSeconds: (elapsed / completed) * (total - completed),
    });
  };
  const cancelled = (index: number, rawResponse: string, timeSeconds: number) =>
    record(
      index,
      unansweredResult(items[index], {
        failureType: "cancelled",
        error: "cancelled",
        rawResponse,
        timeSeconds,
      }),
    );

  // Every task gets a signal of its own from one listener on the run's (see AbortFanout).
  const runSignals = new AbortFanout(signal);
  const generate = async (index: number, think: boolean, signals: AbortFanout = runSignals) => {
    const own = signals.child();
    try {
      return await generateAnswer(
        target,
        {
          requestId: `eval-${runTag}-${index}-${attempt++}`,
          messages: () => benchmark.buildPrompt(items[index], { thinking: think }),
          sampling: sampling.sampling,
          maxTokens: think ? thinkingTokens : benchmark.maxTokens,
          thinking: think,
          signal: own.signal,
        },
        clock,
      );
    } finally {
      own.release();
    }
  };

  // Records a generation's outcome; waits only when the scoring lane is full.
  const settle = async (index: number, outcome: GenerationOutcome): Promise<void> => {
    const { timeSeconds } = outcome;
    if (outcome.kind === "aborted" || signal.aborted) {
      cancelled(index, outcome.kind === "error" ? "" : outcome.raw, timeSeconds);
      return;
    }
    generationSpans.push(outcome.span);
    if (outcome.kind === "error") {
      errorsInARow += 1;
      lastGenerationError = outcome.error;
      const why = {
        failureType: "generation_error" as const,
        error: outcome.error,
        rawResponse: "",
        timeSeconds,
      };
      record(index, unansweredResult(items[index], why));
      if (errorsInARow >= maxErrors) {
        fail(`${errorsInARow} generations failed in a row; last error: ${outcome.error}`);
      }
      return;
    }
    errorsInARow = 0;
    const raw = outcome.raw;
    await lane.submit(async () => {
      if (signal.aborted) return cancelled(index, raw, timeSeconds);
      const span = { start: clock(), end: 0 };
      const own = runSignals.child();
      try {
        const result = await benchmark.score(items[index], splitResponse(raw), {
          sandbox: options.sandbox,
          signal: own.signal,
        });
        // The prompt is stored with the verdict so the result shows exactly what the model was asked.
        const prompt = benchmark.buildPrompt(items[index], { thinking });
        record(index, { ...result, time_s: timeSeconds, prompt });
      } catch (error) {
        if (signal.aborted) return cancelled(index, raw, timeSeconds);
        const message = `scoring failed for ${items[index].id}: ${errorMessage(error)}`;
        log.error({ benchmark: benchmark.name, index }, message);
        fail(message);
      } finally {
        own.release();
        span.end = clock();
        scoringSpans.push(span);
      }
    });
  };

  let queue = items.map((_, index) => index);
  if (mode === "auto" && total > 0) {
    const probe = queue.slice(0, Math.min(batchSize, total));
    const probeStop = new AbortController();
    const probeSignals = new AbortFanout(AbortSignal.any([signal, probeStop.signal]));
    let detected = false;
    const outcomes = await Promise.all(
      probe.map(async (index) => {
        const outcome = await generate(index, false, probeSignals);
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
        "model reasons with thinking off: thinking on, rerunning the probe",
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
      await settle(index, await generate(index, thinking));
    }
  };
  await Promise.all(Array.from({ length: Math.min(batchSize, queue.length) }, slot));
  await lane.drain();

  const questions = results.filter((result): result is QuestionResult => result !== undefined);
  const cancelledRun = failure === null && options.signal?.aborted === true;
  if (failure === null && !cancelledRun && scored === 0 && unanswered > 0) {
    failure = `every generation failed (${unanswered} of ${total}); last error: ${lastGenerationError}`;
  }
  return {
    status: failure !== null ? "failed" : cancelledRun ? "cancelled" : "completed",
    error: failure,
    questions,
    total,
    scored,
    unscored,
    unanswered,
    correct,
    accuracy: scored === 0 ? 0 : correct / scored,
    thinkingUsed: thinking,
    samplingProfile: sampling.profile,
    effectiveSampling: {
      ...target.effectiveSampling(sampling.sampling),
      max_tokens: thinking ? thinkingTokens : benchmark.maxTokens,
    },
    timings: {
      total_s: (clock() - started) / 1000,
      generation_s: questions.reduce((sum, question) => sum + question.time_s, 0),
      scoring_s: measureExclusiveSeconds(scoringSpans, generationSpans),
    },
  };
}
