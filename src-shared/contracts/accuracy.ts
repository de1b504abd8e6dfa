import { z } from "zod";
import { accuracyResultCoreSchema } from "./results.js";

/** Every accuracy benchmark Perch can run. */
export const benchmarkNameSchema = z.enum([
  "humaneval",
  "mbpp",
  "livecodebench",
  "gsm8k",
  "mmlu",
  "mmlu_pro",
  "arc_challenge",
  "hellaswag",
  "truthfulqa_mc1",
  "winogrande",
]);
export type BenchmarkName = z.infer<typeof benchmarkNameSchema>;

/** Why a question was not answered correctly. Clients may switch on these; never rename one. */
export const failureTypeSchema = z.enum([
  "no_code",
  "syntax_error",
  "runtime_error",
  "wrong_answer",
  "timeout",
  "memory",
  "generation_error",
  "cancelled",
  /** A code check wrote more than its scratch quota (all its files together). */
  "disk_quota",
  /** The scoring sandbox failed (not the model): not counted in the accuracy (see SANDBOX.md). */
  "scoring_error",
]);
export type FailureType = z.infer<typeof failureTypeSchema>;

/**
 * Which repair of the response passed (code benchmarks), in the order they are tried. Text
 * benchmarks record how the answer was found (e.g. `boxed`, `answer_is`, `letter`).
 */
export const passModeSchema = z.string().min(1).max(64);

/** Longest `error` kept per question: the last line of stderr or the first differing output line. */
export const maxQuestionErrorLength = 500;

/** Longest test output kept per question (the failing check's stdout and stderr, traceback included). */
export const maxQuestionOutputLength = 8000;
/** Longest output kept per repair tried; the reported failure keeps more in `test_output`. */
export const maxAttemptOutputLength = 2000;
/** Most repairs recorded per question (code benchmarks try a handful; the rest are counted out). */
export const maxQuestionAttempts = 24;

/** How one check of a candidate ended: `passed`, or the failure it would be reported as. */
export const attemptOutcomeSchema = z.union([z.literal("passed"), failureTypeSchema]);

/** One candidate or repair of the response that was run, in the order they were tried. */
export const questionAttemptSchema = z.object({
  /** `<source>:<repair>` (e.g. `block_1:full_function`), as in `pass_mode`. */
  pass_mode: passModeSchema,
  outcome: attemptOutcomeSchema,
  /** The one-line reason it failed (null when it passed). */
  error: z.string().max(maxQuestionErrorLength).nullable(),
  /** Its stdout and stderr, cut in the middle with a "… truncated …" marker past the limit. */
  output: z.string().max(maxAttemptOutputLength),
});
export type QuestionAttempt = z.infer<typeof questionAttemptSchema>;

/** The scored outcome of one question. */
export const questionResultSchema = z.object({
  /** The dataset's id: `HumanEval/0`, MBPP `11`, GSM8K `gsm8k/0` (0-based line), ... */
  id: z.string().min(1),
  correct: z.boolean(),
  /** The reference answer as text (a number, a letter, or a short description of the tests). */
  expected: z.string(),
  /** What was extracted from the response: the answer, or the code that was run. */
  extracted: z.string().nullable(),
  /** The raw model response, thinking included. */
  response: z.string(),
  /** Set when `correct`: which candidate or extraction rule succeeded. */
  pass_mode: passModeSchema.nullable(),
  /** Set when not `correct`. */
  failure_type: failureTypeSchema.nullable(),
  error: z.string().max(maxQuestionErrorLength).nullable(),
  /** Generation time of this question alone, in seconds. */
  time_s: z.number().min(0),
  /** Subject, difficulty or source: what stratified sampling and per-category reports group by. */
  category: z.string(),
  /**
   * The chat messages sent for this question, so a result can be audited. Absent in results
   * saved before it was recorded (and for questions never sent).
   */
  prompt: z
    .array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() }))
    .max(64)
    .optional(),
  /**
   * Every candidate or repair run for this question with its outcome (code benchmarks). Absent in
   * results saved before it was recorded, and for benchmarks that run no code.
   */
  attempts: z.array(questionAttemptSchema).max(maxQuestionAttempts).optional(),
  /**
   * The full output (stdout, stderr and traceback) of the failing check that `error` summarizes,
   * cut in the middle past `maxQuestionOutputLength`. Absent in older results; null when passed.
   */
  test_output: z.string().max(maxQuestionOutputLength).nullable().optional(),
});
export type QuestionResult = z.infer<typeof questionResultSchema>;

/** `deterministic`: greedy with neutral penalties (reproducible). `model_settings`: the model's saved sampling. */
export const samplingProfileSchema = z.enum(["deterministic", "model_settings"]);
export type SamplingProfile = z.infer<typeof samplingProfileSchema>;

/** The sampling a run really used, after the profile was applied. */
export const effectiveSamplingSchema = z.object({
  temperature: z.number().min(0).optional(),
  top_p: z.number().optional(),
  top_k: z.number().int().optional(),
  min_p: z.number().optional(),
  seed: z.number().int().optional(),
  presence_penalty: z.number().optional(),
  frequency_penalty: z.number().optional(),
  repeat_penalty: z.number().optional(),
  max_tokens: z.number().int().positive().optional(),
});
export type EffectiveSampling = z.infer<typeof effectiveSamplingSchema>;

export const accuracyRunStatusSchema = z.enum(["completed", "cancelled", "failed"]);
export type AccuracyRunStatus = z.infer<typeof accuracyRunStatusSchema>;

export const accuracyTimingsSchema = z.object({
  /** Wall time of the whole run. */
  total_s: z.number().min(0),
  /** Sum of per-question generation times (exceeds `total_s` when batched). */
  generation_s: z.number().min(0),
  /** Wall time spent scoring that did not overlap generation. */
  scoring_s: z.number().min(0),
});
export type AccuracyTimings = z.infer<typeof accuracyTimingsSchema>;

/** A saved accuracy result: what the catalog reads plus everything needed to trust and compare it. */
export const accuracyResultSchema = accuracyResultCoreSchema.extend({
  benchmark: benchmarkNameSchema,
  /** e.g. MBPP `full` / `sanitized`, LiveCodeBench `release_v6`, GSM8K `zero_shot`. */
  variant: z.string().min(1).max(64),
  batch_size: z.number().int().min(1).max(256),
  sampling_profile: samplingProfileSchema,
  effective_sampling: effectiveSamplingSchema,
  thinking: z.boolean(),
  status: accuracyRunStatusSchema,
  questions: z.array(questionResultSchema),
  timings: accuracyTimingsSchema,
});
export type AccuracyResult = z.infer<typeof accuracyResultSchema>;

/** `GET /admin/api/bench/accuracy/results`: newest first. */
export const accuracyResultListSchema = z.object({ results: z.array(accuracyResultSchema) });
