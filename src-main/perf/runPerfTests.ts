import { setMaxListeners } from "node:events";
import type {
  PerfBatchTest,
  PerfRunRequest,
  PerfSingleTest,
  PerfSkippedTest,
} from "../../src-shared/contracts/performance.js";
import { PerchError } from "../base/PerchError.js";
import { computeBatchTest } from "./computeBatchTest.js";
import { computeSingleTest, type PeakMemory } from "./computeSingleTest.js";
import { MemorySampler, maxPeak } from "./MemorySampler.js";
import type { PerfRun } from "./PerfRun.js";
import type { PerfSample, PerfTarget } from "./PerfTarget.js";
import { errorMessage } from "../base/describeError.js";

export interface PerfTestOutcome {
  single: PerfSingleTest[];
  batch: PerfBatchTest[];
  skipped: PerfSkippedTest[];
  peak: PeakMemory;
  /** The run was cancelled part-way: the tests above are the ones it finished. */
  cancelled: boolean;
}

export interface RunPerfTestsOptions {
  /** Milliseconds between memory samples. Defaults to `50`. */
  sampleIntervalMs?: number;
}

type Plan = Pick<
  PerfRunRequest,
  "prompt_lengths" | "batch_sizes" | "generated_tokens" | "batch_prompt_tokens"
>;

/** Tests a plan asks for: one step each, whether it runs or is skipped. */
export function countSteps(plan: Plan): number {
  return plan.prompt_lengths.length + plan.batch_sizes.length;
}

/** Why a test cannot run on this target, or undefined when it can. */
export function skipReasonFor(
  target: PerfTarget,
  promptTokens: number,
  generated: number,
  batchSize = 1,
): string | undefined {
  const needed = promptTokens + generated;
  if (target.contextSize !== null && needed > target.contextSize) {
    return `needs ${needed} tokens (${promptTokens} prompt + ${generated} generated) but the context holds ${target.contextSize}`;
  }
  if (batchSize > 1 && target.maxConcurrent !== null && batchSize > target.maxConcurrent) {
    return `the model serves at most ${target.maxConcurrent} requests at once; ${batchSize} would measure queueing`;
  }
  return undefined;
}

/**
 * Runs the single-request tests, then the batch tests, one step each, reporting every step on
 * the run. Nothing here touches the clock around a request except the target itself, so the
 * runner adds no overhead to the figures. A request the engine rejects as too long for the
 * context becomes a skipped test, not a failed run. A cancel ends it with the tests finished so
 * far (`cancelled: true`).
 */
export async function runPerfTests(
  run: PerfRun,
  target: PerfTarget,
  plan: Plan,
  options: RunPerfTestsOptions = {},
): Promise<PerfTestOutcome> {
  const outcome: PerfTestOutcome = {
    single: [],
    batch: [],
    skipped: [],
    peak: { rssBytes: 0, gpuBytes: null },
    cancelled: false,
  };
  try {
    await runEveryTest(run, target, plan, options, outcome);
  } catch (error) {
    // A cancel keeps what finished before it; the test it cut short is not among them.
    if (!run.signal.aborted) throw error;
    outcome.cancelled = true;
  }
  return outcome;
}

async function runEveryTest(
  run: PerfRun,
  target: PerfTarget,
  plan: Plan,
  options: RunPerfTestsOptions,
  outcome: PerfTestOutcome,
): Promise<void> {
  const totalSteps = countSteps(plan);
  const generated = plan.generated_tokens;
  let step = 0;
  const skip = (skipped: PerfSkippedTest) => {
    outcome.skipped.push(skipped);
    run.emit({ type: "test_skipped", step, total_steps: totalSteps, skipped });
  };
  const measure = async <T>(work: () => Promise<T>): Promise<{ value: T; memory: PeakMemory }> => {
    const sampler = new MemorySampler({
      intervalMs: options.sampleIntervalMs,
      gpuBytes: () => target.gpuBytes(),
    }).start();
    try {
      const value = await work();
      const memory = await sampler.stop();
      outcome.peak = maxPeak(outcome.peak, memory);
      return { value, memory };
    } finally {
      await sampler.stop();
    }
  };

  if (plan.prompt_lengths.length > 0) run.emit({ type: "phase", phase: "single" });
  for (const promptTokens of plan.prompt_lengths) {
    run.signal.throwIfAborted();
    step += 1;
    const reason = skipReasonFor(target, promptTokens, generated);
    if (reason) {
      skip({ kind: "single", prompt_tokens: promptTokens, batch_size: null, reason });
      continue;
    }
    run.emit({
      type: "test_started",
      step,
      total_steps: totalSteps,
      kind: "single",
      prompt_tokens: promptTokens,
      batch_size: null,
    });
    const prompt = target.buildPrompt(promptTokens);
    try {
      const { value: sample, memory } = await measure(() => target.generate(prompt, generated, run.signal));
      // A generation the cancel cut short (27 of 256 tokens) is no measurement: never "completed".
      run.signal.throwIfAborted();
      const test = computeSingleTest(sample, memory);
      outcome.single.push(test);
      run.emit({ type: "single_completed", step, total_steps: totalSteps, test });
    } catch (error) {
      if (!isContextOverflow(error)) throw error;
      skip({
        kind: "single",
        prompt_tokens: promptTokens,
        batch_size: null,
        reason: errorMessage(error),
      });
    }
  }

  if (plan.batch_sizes.length > 0) run.emit({ type: "phase", phase: "batch" });
  for (const batchSize of plan.batch_sizes) {
    run.signal.throwIfAborted();
    step += 1;
    const promptTokens = plan.batch_prompt_tokens;
    const reason = skipReasonFor(target, promptTokens, generated, batchSize);
    if (reason) {
      skip({ kind: "batch", prompt_tokens: promptTokens, batch_size: batchSize, reason });
      continue;
    }
    run.emit({
      type: "test_started",
      step,
      total_steps: totalSteps,
      kind: "batch",
      prompt_tokens: promptTokens,
      batch_size: batchSize,
    });
    const prompts = Array.from({ length: batchSize }, () => target.buildPrompt(promptTokens));
    try {
      const startedAt = performance.now();
      const { value: samples, memory } = await measure(() =>
        generateAll(target, prompts, generated, run.signal),
      );
      run.signal.throwIfAborted();
      const test = computeBatchTest(samples, startedAt, memory);
      outcome.batch.push(test);
      run.emit({ type: "batch_completed", step, total_steps: totalSteps, test });
    } catch (error) {
      if (!isContextOverflow(error)) throw error;
      skip({
        kind: "batch",
        prompt_tokens: promptTokens,
        batch_size: batchSize,
        reason: errorMessage(error),
      });
    }
  }
}

/** Sends every prompt at once; the first failure cancels the others (no orphaned requests). */
async function generateAll(
  target: PerfTarget,
  prompts: ReturnType<PerfTarget["buildPrompt"]>[],
  generated: number,
  signal: AbortSignal,
): Promise<PerfSample[]> {
  const batch = new AbortController();
  const both = AbortSignal.any([signal, batch.signal]);
  // Each of the batch's requests listens on it (queue, sequence, decode ahead): 8 requests are
  // more than Node's warning threshold of 10 listeners without any leak.
  setMaxListeners(0, both);
  return Promise.all(
    prompts.map((prompt) =>
      target.generate(prompt, generated, both).catch((error: unknown) => {
        batch.abort(error);
        throw error;
      }),
    ),
  );
}

function isContextOverflow(error: unknown): boolean {
  return error instanceof PerchError && error.code === "context_length_exceeded";
}
