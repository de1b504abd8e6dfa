import { z } from "zod";
import {
  accuracyResultCoreSchema,
  performanceResultCoreSchema,
  performanceSingleTestSchema,
} from "./results.js";

/*
 * PROVISIONAL: minimal, permissive schemas for the evals (issue 4), performance (issue 6) and
 * scheduler stats routes, so the dashboard and its route table build before those contracts
 * land. Each one is replaced by a re-export of the owning contract (`evals.ts`, `bench.ts`,
 * `server.ts`) as soon as it exists; the dashboard only reads the fields named here.
 */

export const runIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

export const samplingProfileSchema = z.enum(["deterministic", "model_settings"]);
export type SamplingProfile = z.infer<typeof samplingProfileSchema>;

export const accuracyQueueRequestSchema = z.looseObject({
  model_id: z.string().min(1).max(512),
  benchmarks: z.array(z.string().min(1).max(64)).min(1).max(16),
  limit: z.number().int().min(1).optional(),
  batch_size: z.number().int().min(1).max(32),
  sampling_profile: samplingProfileSchema,
  thinking: z.enum(["auto", "on", "off"]).optional(),
});

export const runStatusSchema = z.string();

export const accuracyRunSchema = z.looseObject({
  run_id: runIdSchema,
  status: runStatusSchema.optional(),
  model_id: z.string().nullish(),
  benchmarks: z.array(z.string()).optional(),
});
export type AccuracyRun = z.infer<typeof accuracyRunSchema>;

export const accuracyQueueResponseSchema = z.looseObject({ runs: z.array(accuracyRunSchema) });

/** One progress event of an accuracy run; the dashboard reads the fields it knows. */
export const accuracyEventSchema = z.looseObject({
  type: z.string(),
  run_id: z.string().optional(),
  benchmark: z.string().optional(),
  completed: z.number().optional(),
  total: z.number().optional(),
  correct: z.number().optional(),
  accuracy: z.number().nullish(),
  eta_s: z.number().nullish(),
  result_id: z.string().optional(),
  error: z.unknown().optional(),
});
export type AccuracyEvent = z.infer<typeof accuracyEventSchema>;

export const questionResultSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  correct: z.boolean(),
  expected: z.unknown().optional(),
  extracted: z.unknown().optional(),
  extracted_answer: z.unknown().optional(),
  response: z.string().nullish(),
  raw_response: z.string().nullish(),
  pass_mode: z.string().nullish(),
  failure_type: z.string().nullish(),
  error: z.string().nullish(),
  time_s: z.number().nullish(),
  category: z.string().nullish(),
});
export type QuestionResult = z.infer<typeof questionResultSchema>;

export const accuracyResultSchema = accuracyResultCoreSchema
  .extend({
    correct: z.number().int().optional(),
    variant: z.string().nullish(),
    batch_size: z.number().int().nullish(),
    sampling_profile: z.string().nullish(),
    sampling: z.record(z.string(), z.unknown()).nullish(),
    thinking: z.unknown().optional(),
    status: z.string().optional(),
    duration_s: z.number().nullish(),
    questions: z.array(questionResultSchema).optional(),
  })
  .loose();
export type AccuracyResult = z.infer<typeof accuracyResultSchema>;

export const accuracyResultListSchema = z.looseObject({ results: z.array(accuracyResultSchema) });

export const performanceStartRequestSchema = z.looseObject({
  model_id: z.string().min(1).max(512),
  prompt_lengths: z.array(z.number().int().min(1)).min(1).max(8),
  batch_sizes: z.array(z.number().int().min(1).max(64)).max(8),
  upload_to_community: z.boolean(),
});

export const performanceStartResponseSchema = z.looseObject({ run_id: runIdSchema });

export const performanceActiveResponseSchema = z.looseObject({
  run: z.looseObject({ run_id: runIdSchema }).nullish(),
});

export const performanceEventSchema = z.looseObject({
  type: z.string(),
  run_id: z.string().optional(),
  completed: z.number().optional(),
  total: z.number().optional(),
  eta_s: z.number().nullish(),
  result_id: z.string().optional(),
  error: z.unknown().optional(),
});
export type PerformanceEvent = z.infer<typeof performanceEventSchema>;

export const batchTestSchema = z.looseObject({
  batch_size: z.number().int(),
  prompt_tokens: z.number().int().optional(),
  pp_tps: z.number(),
  tg_tps: z.number(),
  ttft_ms: z.number().optional(),
});

export const uploadStatusSchema = z.looseObject({
  status: z.string(),
  reason: z.string().nullish(),
  error: z.string().nullish(),
});

export const performanceResultSchema = performanceResultCoreSchema
  .extend({
    single: z.array(performanceSingleTestSchema.loose()),
    batch: z.array(batchTestSchema).optional(),
    upload: uploadStatusSchema.nullish(),
    peak_memory_bytes: z.number().nullish(),
  })
  .loose();
export type PerformanceResult = z.infer<typeof performanceResultSchema>;

export const performanceResultListSchema = z.looseObject({ results: z.array(performanceResultSchema) });

export const uploadPreviewQuerySchema = z.object({ model_id: z.string().min(1).max(512) }).strict();
export const uploadPreviewResponseSchema = z.looseObject({
  payload: z.record(z.string(), z.unknown()),
  skip_reason: z.string().nullish(),
});

export const unloadResponseSchema = z.looseObject({});

export const serverStatsSchema = z.looseObject({
  active_requests: z.number().optional(),
  queued_requests: z.number().optional(),
});
export type ServerStats = z.infer<typeof serverStatsSchema>;
