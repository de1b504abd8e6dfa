import { z } from "zod";
import { isoDateTimeSchema, isoDaySchema } from "./primitives.js";
import { errorCodeSchema } from "./errors.js";
import {
  benchmarkNameSchema,
  effectiveSamplingSchema,
  failureTypeSchema,
  samplingProfileSchema,
} from "./accuracy.js";
import { resultIdSchema } from "./results.js";

/*
 * Accuracy eval runs (the server-side queue) and their progress events:
 *   POST   /admin/api/bench/accuracy/queue               add a run (EvalRunAddRequest) -> EvalRunSummary
 *   GET    /admin/api/bench/accuracy/queue               EvalQueueListing
 *   DELETE /admin/api/bench/accuracy/queue/{run_id}      remove a waiting run -> EvalRunSummary
 *   GET    /admin/api/bench/accuracy/{run_id}/stream     SSE of EvalRunEvent, replayed from the start
 *   POST   /admin/api/bench/accuracy/{run_id}/cancel     cancel a waiting or running run -> EvalRunSummary
 */

/** Generations kept in flight at once. Powers of two, as the UI offers them. */
export const evalBatchSizes = [1, 2, 4, 8, 16, 32] as const;
export const evalBatchSizeSchema = z.literal(evalBatchSizes);
export type EvalBatchSize = z.infer<typeof evalBatchSizeSchema>;

/** `auto` probes the first batch with thinking off and switches it on when the model reasons anyway. */
export const thinkingModeSchema = z.enum(["auto", "on", "off"]);
export type ThinkingMode = z.infer<typeof thinkingModeSchema>;

const httpUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

/** An OpenAI-compatible server (llama-server, vLLM, LM Studio, Ollama...). */
export const externalTargetSchema = z
  .object({
    /** With or without a trailing `/v1`. */
    base_url: httpUrlSchema,
    api_key: z.string().min(1).max(4096).optional(),
    /** The `model` field sent with every request. */
    model: z.string().min(1).max(1024),
  })
  .strict();
export type ExternalTarget = z.infer<typeof externalTargetSchema>;

/** Body of `POST /admin/api/bench/accuracy/queue`: exactly one of `model_id` / `external`. */
export const evalRunAddRequestSchema = z
  .object({
    model_id: z.string().min(1).max(1024).optional(),
    external: externalTargetSchema.optional(),
    /** Run one after the other, for the same model. */
    benchmarks: z.array(benchmarkNameSchema).min(1).max(16),
    /** Questions per benchmark; 0 or absent means the whole dataset. */
    sample_size: z.number().int().min(0).max(100_000).default(0),
    /** Dataset variant per benchmark (MBPP `sanitized`, LiveCodeBench `release_v6`...); unset = its default. */
    variants: z.partialRecord(benchmarkNameSchema, z.string().min(1).max(64)).default({}),
    /** LiveCodeBench date window: problems from this day (`YYYY-MM-DD`) on. */
    since: isoDaySchema.optional(),
    /** LiveCodeBench date window: problems up to this day. */
    until: isoDaySchema.optional(),
    batch_size: evalBatchSizeSchema.default(1),
    sampling_profile: samplingProfileSchema.default("deterministic"),
    thinking: thinkingModeSchema.default("auto"),
    /** Datasets only from the server's cache: a benchmark whose data is not cached fails, nothing is downloaded. */
    offline: z.boolean().default(false),
  })
  .strict()
  .refine((body) => (body.model_id === undefined) !== (body.external === undefined), {
    message: "give exactly one of 'model_id' or 'external'",
    path: ["model_id"],
  })
  .refine((body) => new Set(body.benchmarks).size === body.benchmarks.length, {
    message: "a benchmark may appear only once",
    path: ["benchmarks"],
  })
  // A window that ends before it starts holds no problem: the run would score nothing.
  .refine((body) => !body.since || !body.until || body.since <= body.until, {
    message: "'until' is before 'since': the date window holds no day",
    path: ["until"],
  });
export type EvalRunAddRequest = z.input<typeof evalRunAddRequestSchema>;
export type EvalRunRequest = z.output<typeof evalRunAddRequestSchema>;

/** Path params of the `{run_id}` routes. */
export const evalRunIdSchema = z.string().regex(/^run-[A-Za-z0-9_-]{1,64}$/, "not a run id");
export const evalRunParamsSchema = z.object({ run_id: evalRunIdSchema }).strict();

export const evalRunStateSchema = z.enum([
  "queued",
  "running",
  "completed",
  "cancelled",
  "failed",
  "removed",
]);
export type EvalRunState = z.infer<typeof evalRunStateSchema>;

/** The target as shown back: an external target's API key never travels back. */
export const evalRunTargetSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("local"), model_id: z.string() }),
  z.object({
    kind: z.literal("external"),
    base_url: z.string(),
    model: z.string(),
    api_key_set: z.boolean(),
  }),
]);
export type EvalRunTarget = z.infer<typeof evalRunTargetSchema>;

const runErrorSchema = z.object({ code: errorCodeSchema, message: z.string() });

export const evalRunSummarySchema = z.object({
  run_id: evalRunIdSchema,
  state: evalRunStateSchema,
  target: evalRunTargetSchema,
  benchmarks: z.array(benchmarkNameSchema),
  sample_size: z.number().int(),
  variants: z.partialRecord(benchmarkNameSchema, z.string()),
  batch_size: evalBatchSizeSchema,
  sampling_profile: samplingProfileSchema,
  thinking: thinkingModeSchema,
  /** 1-based place among the waiting runs; null unless queued. */
  position: z.number().int().nullable(),
  created_at: isoDateTimeSchema,
  started_at: isoDateTimeSchema.nullable(),
  finished_at: isoDateTimeSchema.nullable(),
  /** The benchmark now running and how far it got. */
  progress: z
    .object({ benchmark: z.string(), completed: z.number().int(), total: z.number().int() })
    .nullable(),
  /** Saved results, one per finished (or cancelled, partial) benchmark. */
  result_ids: z.array(resultIdSchema),
  error: runErrorSchema.nullable(),
});
export type EvalRunSummary = z.infer<typeof evalRunSummarySchema>;

/** `GET /admin/api/bench/accuracy/queue`. */
export const evalQueueListingSchema = z.object({
  running: evalRunSummarySchema.nullable(),
  /** In the order they will run. */
  queued: z.array(evalRunSummarySchema),
  /** Recently finished runs, newest first (their streams still replay). */
  finished: z.array(evalRunSummarySchema),
});
export type EvalQueueListing = z.infer<typeof evalQueueListingSchema>;

/** Every event carries its run, its 0-based place in the run's stream and a timestamp. */
const eventBase = {
  run_id: evalRunIdSchema,
  seq: z.number().int().min(0),
  at: isoDateTimeSchema,
};

/**
 * Progress of one run. A late subscriber first receives every event so far (replay), then the
 * live ones; `run_finished` is always last.
 */
export const evalRunEventSchema = z.discriminatedUnion("type", [
  z.object({ ...eventBase, type: z.literal("run_queued"), position: z.number().int() }),
  z.object({ ...eventBase, type: z.literal("run_started") }),
  z.object({
    ...eventBase,
    type: z.literal("benchmark_started"),
    benchmark: z.string(),
    total: z.number().int(),
    batch_size: evalBatchSizeSchema,
    sampling_profile: samplingProfileSchema,
    effective_sampling: effectiveSamplingSchema,
    /** Thinking at the start; `thinking_detected` may switch it on. */
    thinking: z.boolean(),
  }),
  /** The probe batch showed reasoning with thinking off: thinking is on and the probe reruns. */
  z.object({ ...eventBase, type: z.literal("thinking_detected"), benchmark: z.string() }),
  z.object({
    ...eventBase,
    type: z.literal("question_done"),
    benchmark: z.string(),
    /** Dataset position. Completion order is not dataset order. */
    index: z.number().int(),
    question_id: z.string(),
    correct: z.boolean(),
    failure_type: failureTypeSchema.nullable(),
    /** This question's own generation time. */
    time_s: z.number(),
    completed: z.number().int(),
    total: z.number().int(),
    correct_count: z.number().int(),
    running_accuracy: z.number(),
    /** Seconds left at the pace so far; null before the first answer. */
    eta_s: z.number().nullable(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("benchmark_finished"),
    benchmark: z.string(),
    status: z.enum(["completed", "cancelled", "failed"]),
    accuracy: z.number(),
    correct: z.number().int(),
    /** Questions scored (fewer than planned when cancelled). */
    total: z.number().int(),
    thinking_used: z.boolean(),
    wall_s: z.number(),
    /** Null when nothing was saved (failed before any answer, or the store failed). */
    result_id: resultIdSchema.nullable(),
    error: runErrorSchema.nullable(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("run_finished"),
    state: z.enum(["completed", "cancelled", "failed", "removed"]),
    error: runErrorSchema.nullable(),
  }),
]);
export type EvalRunEvent = z.infer<typeof evalRunEventSchema>;
export type EvalRunEventType = EvalRunEvent["type"];
