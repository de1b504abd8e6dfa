import { z } from "zod";
import { isoDateTimeSchema, safeIdSchema } from "./primitives.js";
import { errorCodeSchema } from "./errors.js";
import { performanceResultCoreSchema, performanceSingleTestSchema, resultIdSchema } from "./results.js";

/** Prompt lengths a run may choose from (each is bounded by the model's context at run time). */
export const perfPromptLengthOptions = [128, 512, 1024, 4096, 8192, 16384, 32768] as const;
/** Concurrent requests a batch test may use. */
export const perfBatchSizeOptions = [2, 4, 8] as const;
export const perfDefaultPromptLengths = [128, 512, 1024, 4096] as const;
export const perfDefaultGeneratedTokens = 128;

const isoDateSchema = isoDateTimeSchema;
const promptLengthSchema = z.literal(perfPromptLengthOptions);
const batchSizeSchema = z.literal(perfBatchSizeOptions);
const rateSchema = z.number().min(0);
const msSchema = z.number().min(0);
const bytesSchema = z.number().int().min(0);
const runIdSchema = safeIdSchema(128);

/** An OpenAI-compatible server to measure instead of a local model. */
export const perfExternalTargetSchema = z
  .object({
    /** With or without a trailing `/v1`, e.g. `http://127.0.0.1:8080/v1`. */
    base_url: z.url({ protocol: /^https?$/ }).max(2048),
    api_key: z.string().min(1).max(512).optional(),
    model: z.string().min(1).max(256),
    /**
     * `completions` sends the prompt as is (exact token counts, no chat template); `chat` for
     * servers without `/v1/completions`. Defaults to `"completions"`.
     */
    api: z.enum(["completions", "chat"]).default("completions"),
  })
  .strict();
export type PerfExternalTarget = z.infer<typeof perfExternalTargetSchema>;

const uniqueSorted = <T extends number>(values: readonly T[]): T[] =>
  [...new Set(values)].sort((a, b) => a - b);

/** Body of `POST /admin/api/bench/start` (and the CLI's options). Exactly one target. */
export const perfRunRequestSchema = z
  .object({
    model_id: z.string().min(1).max(1024).optional(),
    external: perfExternalTargetSchema.optional(),
    /** Single-request prompt lengths. Defaults to `[128, 512, 1024, 4096]`. */
    prompt_lengths: z
      .array(promptLengthSchema)
      .min(1)
      .max(7)
      .default([...perfDefaultPromptLengths])
      .transform(uniqueSorted),
    /** Concurrent-request tests; `[]` skips batching. Defaults to `[2, 4, 8]`. */
    batch_sizes: z
      .array(batchSizeSchema)
      .max(3)
      .default([...perfBatchSizeOptions])
      .transform(uniqueSorted),
    /** Tokens generated per request (forced: end-of-text is ignored). Defaults to `128`. */
    generated_tokens: z.number().int().min(1).max(1024).default(perfDefaultGeneratedTokens),
    /** Prompt length of each request of a batch test. Defaults to `512`. */
    batch_prompt_tokens: promptLengthSchema.default(512),
    /** Send the result to the community site. Direct API callers must opt in. Defaults to `false`. */
    upload_to_community: z.boolean().default(false),
  })
  .strict()
  .refine((request) => (request.model_id === undefined) !== (request.external === undefined), {
    message: "give exactly one of model_id or external",
    path: ["model_id"],
  });
export type PerfRunRequest = z.output<typeof perfRunRequestSchema>;
export type PerfRunRequestInput = z.input<typeof perfRunRequestSchema>;

/** One single-request test: the catalog's core fields plus the rest of what was measured. */
export const perfSingleTestSchema = performanceSingleTestSchema.extend({
  /** Prompt tokens the engine reused from a cache; 0 when the unique prefix did its job. */
  cached_prompt_tokens: z.number().int().min(0),
  /** Mean time per output token after the first; 0 when fewer than two tokens were generated. */
  tpot_ms: msSchema,
  /** From sending the request to its last token, as the caller sees it. */
  e2e_ms: msSchema,
  queue_wait_ms: msSchema,
  peak_rss_bytes: bytesSchema,
  /** Peak VRAM node-llama-cpp reported for its own use; null off the GPU / for external targets. */
  peak_gpu_bytes: bytesSchema.nullable(),
});
export type PerfSingleTest = z.infer<typeof perfSingleTestSchema>;

/** `batch_size` requests sent at once. Rates are aggregate (all requests together). */
export const perfBatchTestSchema = z.object({
  batch_size: z.number().int().min(1),
  /** Prompt tokens of each request. */
  prompt_tokens: z.number().int().min(0),
  /** Generated tokens, all requests together. */
  generated_tokens: z.number().int().min(0),
  /** All prompt tokens / time from sending until the last request's first token. */
  aggregate_pp_tps: rateSchema,
  /** Tokens after each request's first / time from the first first-token to the last token. */
  aggregate_tg_tps: rateSchema,
  /** Client-side TTFT (includes waiting for a free slot), averaged over the requests. */
  mean_ttft_ms: msSchema,
  wall_ms: msSchema,
  peak_rss_bytes: bytesSchema,
  peak_gpu_bytes: bytesSchema.nullable(),
});
export type PerfBatchTest = z.infer<typeof perfBatchTestSchema>;

export const perfSkippedTestSchema = z.object({
  kind: z.enum(["single", "batch"]),
  prompt_tokens: z.number().int().min(0),
  batch_size: z.number().int().min(1).nullable(),
  reason: z.string().max(1000),
});
export type PerfSkippedTest = z.infer<typeof perfSkippedTestSchema>;

export const perfTargetInfoSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("local"), model_id: z.string() }),
  z.object({
    kind: z.literal("external"),
    base_url: z.string(),
    model: z.string(),
    api: z.enum(["completions", "chat"]),
  }),
]);
export type PerfTargetInfo = z.infer<typeof perfTargetInfoSchema>;

/** What is known about the measured model; fields a target cannot know are null. */
export const perfModelInfoSchema = z.object({
  name: z.string(),
  quantization: z.string().nullable(),
  parameter_count: z.number().int().min(0).nullable(),
  file_size_bytes: bytesSchema.nullable(),
  context_size: z.number().int().min(0).nullable(),
});
export type PerfModelInfo = z.infer<typeof perfModelInfoSchema>;

export const perfEnvironmentSchema = z.object({
  app_version: z.string(),
  os: z.string(),
  arch: z.string(),
  cpu_model: z.string(),
  memory_bytes: bytesSchema,
  /** llama.cpp backend (`metal`, `cuda`, `vulkan`, or `cpu`); null for external targets. */
  backend: z.string().nullable(),
  threads: z.number().int().min(0).nullable(),
  /** Settings that make a result incomparable with stock runs (speculation, KV-cache type...). */
  experimental_features: z.array(z.string()),
  /**
   * Requests from other clients the model served during the run: they shared its decodes and the
   * machine, so the numbers read low. 0 for a clean run (and for results saved before this field).
   */
  other_requests: z.number().int().min(0).default(0),
});
export type PerfEnvironment = z.infer<typeof perfEnvironmentSchema>;

export const uploadSkipCodeSchema = z.enum([
  "experimental_features",
  "external_target",
  "no_endpoint",
  "concurrent_load",
]);
export type UploadSkipCode = z.infer<typeof uploadSkipCodeSchema>;

/** Upload state saved on the result; `failed` can be retried through the upload route. */
export const perfUploadStatusSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("not_requested") }),
  z.object({ state: z.literal("skipped"), code: uploadSkipCodeSchema, reason: z.string() }),
  z.object({ state: z.literal("uploading"), started_at: isoDateSchema }),
  z.object({ state: z.literal("uploaded"), at: isoDateSchema, remote_id: z.string().nullable() }),
  z.object({ state: z.literal("duplicate"), at: isoDateSchema }),
  z.object({ state: z.literal("failed"), at: isoDateSchema, error: z.string() }),
]);
export type PerfUploadStatus = z.infer<typeof perfUploadStatusSchema>;

/** `<base>/benchmarks/performance/results/<result_id>.json`. */
export const performanceResultSchema = performanceResultCoreSchema.extend({
  run_id: runIdSchema,
  target: perfTargetInfoSchema,
  model: perfModelInfoSchema,
  plan: z.object({
    prompt_lengths: z.array(z.number().int()),
    batch_sizes: z.array(z.number().int()),
    generated_tokens: z.number().int(),
    batch_prompt_tokens: z.number().int(),
  }),
  single: z.array(perfSingleTestSchema),
  batch: z.array(perfBatchTestSchema),
  skipped: z.array(perfSkippedTestSchema),
  peak_rss_bytes: bytesSchema,
  peak_gpu_bytes: bytesSchema.nullable(),
  duration_ms: msSchema,
  environment: perfEnvironmentSchema,
  upload_requested: z.boolean(),
  upload: perfUploadStatusSchema,
});
export type PerformanceResult = z.infer<typeof performanceResultSchema>;

/** `GET /admin/api/bench/results`: newest first. */
export const performanceResultListSchema = z.object({ results: z.array(performanceResultSchema) });

export const perfPhaseSchema = z.enum(["loading", "warmup", "single", "batch", "saving", "uploading"]);
export type PerfPhase = z.infer<typeof perfPhaseSchema>;

const eventBase = { run_id: runIdSchema, seq: z.number().int().min(0), at: isoDateSchema };
const stepFields = { step: z.number().int().min(1), total_steps: z.number().int().min(0) };

/** Progress of a run, in order; a late subscriber gets every event so far first (replay). */
export const perfEventSchema = z.discriminatedUnion("type", [
  z.object({
    ...eventBase,
    type: z.literal("started"),
    target: perfTargetInfoSchema,
    plan: performanceResultSchema.shape.plan,
    total_steps: z.number().int().min(0),
  }),
  z.object({ ...eventBase, type: z.literal("phase"), phase: perfPhaseSchema }),
  z.object({
    ...eventBase,
    ...stepFields,
    type: z.literal("test_started"),
    kind: z.enum(["single", "batch"]),
    prompt_tokens: z.number().int(),
    batch_size: z.number().int().nullable(),
  }),
  z.object({ ...eventBase, ...stepFields, type: z.literal("single_completed"), test: perfSingleTestSchema }),
  z.object({ ...eventBase, ...stepFields, type: z.literal("batch_completed"), test: perfBatchTestSchema }),
  z.object({ ...eventBase, ...stepFields, type: z.literal("test_skipped"), skipped: perfSkippedTestSchema }),
  z.object({
    ...eventBase,
    type: z.literal("upload"),
    result_id: resultIdSchema,
    status: perfUploadStatusSchema,
  }),
  z.object({ ...eventBase, type: z.literal("completed"), result: performanceResultSchema }),
  z.object({
    ...eventBase,
    type: z.literal("failed"),
    error: z.object({ code: errorCodeSchema, message: z.string() }),
    /** The measurements when only saving them failed (a full disk): shown, though not stored. */
    unsaved_result: performanceResultSchema.optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("cancelled"),
    /** The tests finished before the cancel, saved as a `cancelled` result; absent when none had. */
    result: performanceResultSchema.optional(),
  }),
]);
export type PerfEvent = z.infer<typeof perfEventSchema>;
export type PerfEventType = PerfEvent["type"];

/** Answer of `POST /admin/api/bench/start` (202). */
export const perfStartResponseSchema = z.object({ run_id: runIdSchema, stream_url: z.string() });
export type PerfStartResponse = z.infer<typeof perfStartResponseSchema>;

export const perfRunStateSchema = z.enum(["running", "completed", "failed", "cancelled"]);

/** A run as `GET /admin/api/bench/active` reports it. */
export const perfRunInfoSchema = z.object({
  run_id: runIdSchema,
  state: perfRunStateSchema,
  target: perfTargetInfoSchema,
  started_at: isoDateSchema,
  step: z.number().int().min(0),
  total_steps: z.number().int().min(0),
  result_id: resultIdSchema.nullable(),
});
export type PerfRunInfo = z.infer<typeof perfRunInfoSchema>;
export const perfActiveResponseSchema = z.object({ active: perfRunInfoSchema.nullable() });
export type PerfActiveResponse = z.infer<typeof perfActiveResponseSchema>;

export const perfRunParamsSchema = z.object({ run_id: runIdSchema }).strict();
export const perfResultParamsSchema = z.object({ result_id: resultIdSchema }).strict();

/**
 * What the community site receives, and nothing else (`strict`): hardware, OS, app and model
 * identity, the numbers and a salted per-install hash. No paths, user names, host names or prompts.
 */
export const communityUploadPayloadSchema = z
  .object({
    schema_version: z.literal(1),
    /** The result id: random, lets the site answer 409 to a repeated upload. */
    submission_id: resultIdSchema,
    /** sha256(per-install random salt): groups one install's uploads, identifies no one. */
    owner_hash: z.string().regex(/^[0-9a-f]{64}$/),
    app_version: z.string().max(64),
    os: z
      .object({ platform: z.string().max(32), version: z.string().max(128), arch: z.string().max(32) })
      .strict(),
    hardware: z
      .object({
        /** CPU brand string, e.g. `Apple M2 Pro`. */
        chip: z.string().max(256),
        memory_bytes: bytesSchema,
        /** GPU cores where the OS reports them (Apple Silicon), else null. */
        gpu_cores: z.number().int().min(1).nullable(),
      })
      .strict(),
    model: z
      .object({
        name: z.string().max(256),
        quantization: z.string().max(64).nullable(),
        parameter_count: z.number().int().min(0).nullable(),
        file_sha256: z.string().regex(/^[0-9a-f]{64}$/),
        context_size: z.number().int().min(0),
      })
      .strict(),
    results: z
      .object({
        single: z.array(
          z
            .object({
              prompt_tokens: z.number().int().min(0),
              generated_tokens: z.number().int().min(0),
              pp_tps: rateSchema,
              tg_tps: rateSchema,
              ttft_ms: msSchema,
            })
            .strict(),
        ),
        batch: z.array(
          z
            .object({
              batch_size: z.number().int().min(1),
              prompt_tokens: z.number().int().min(0),
              aggregate_pp_tps: rateSchema,
              aggregate_tg_tps: rateSchema,
              mean_ttft_ms: msSchema,
            })
            .strict(),
        ),
        peak_memory_bytes: bytesSchema,
      })
      .strict(),
  })
  .strict();
export type CommunityUploadPayload = z.infer<typeof communityUploadPayloadSchema>;

export const uploadPreviewQuerySchema = z
  .object({ model_id: z.string().min(1).max(1024).optional(), result_id: resultIdSchema.optional() })
  .strict()
  .refine((query) => query.model_id !== undefined || query.result_id !== undefined, {
    message: "give model_id or result_id",
  });

/**
 * `GET /admin/api/bench/upload/preview`: exactly what would be sent. Before a model has a result,
 * `results` holds empty lists (`from_result_id: null`); the run fills them in.
 */
export const uploadPreviewResponseSchema = z.object({
  /** Null for an external run's result: nothing about it is ever sent. */
  payload: communityUploadPayloadSchema.nullable(),
  from_result_id: resultIdSchema.nullable(),
  /** Why an upload would be skipped right now; null when it would be sent. */
  skip: z.object({ code: uploadSkipCodeSchema, reason: z.string() }).nullable(),
  endpoint: z.string().nullable(),
});
export type UploadPreviewResponse = z.infer<typeof uploadPreviewResponseSchema>;

export const uploadRetryResponseSchema = z.object({
  result_id: resultIdSchema,
  upload: perfUploadStatusSchema,
});
