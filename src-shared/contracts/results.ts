import { z } from "zod";
import { isoDateTimeSchema } from "./primitives.js";

/**
 * A result id: it names a file (`<result_id>.json`), so it is a strict slug — letters, digits,
 * `_` and `-`, starting with a letter or digit, at most 128 characters. No dots, no slashes:
 * no path traversal is expressible.
 */
export const resultIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
export const resultIdSchema = z.string().regex(resultIdPattern, "must be 1-128 letters, digits, '_' or '-'");
export type ResultId = z.infer<typeof resultIdSchema>;

const isoDateSchema = isoDateTimeSchema;

/**
 * Which file of a local model a result measured: the hub commit it came from and its content id
 * (the sha256 of an LFS file; both null for a local file) and its size. Absent on results saved
 * before it was recorded and on results of external endpoints.
 */
export const modelFileSchema = z.object({
  revision: z.string().max(256).nullable(),
  file_oid: z.string().max(256).nullable(),
  size_bytes: z.number().int().min(0),
});
export type ModelFile = z.infer<typeof modelFileSchema>;

/**
 * Whether two records name the same file: by content id where both have one (a new commit that
 * left the file alone keeps it), else by size (a local file replaced in place).
 */
export function isSameModelFile(a: ModelFile, b: ModelFile): boolean {
  if (a.file_oid !== null && b.file_oid !== null) return a.file_oid === b.file_oid;
  return a.size_bytes === b.size_bytes;
}

/**
 * Whether a result measured another file than the model has now (an update was pulled, the file
 * was replaced): false when either side is unknown.
 */
export function isEarlierModelFile(measured: ModelFile | undefined, current: ModelFile | undefined): boolean {
  return measured !== undefined && current !== undefined && !isSameModelFile(measured, current);
}

/**
 * The fields of an accuracy result that the catalog summaries read. The evals contract
 * (`evals.ts`) extends this with variant, sampling provenance, per-question diagnostics...
 */
export const accuracyResultCoreSchema = z.object({
  result_id: resultIdSchema,
  created_at: isoDateSchema,
  model_id: z.string().min(1).max(1024),
  /** e.g. `humaneval`, `mbpp`, `livecodebench`, `gsm8k`, `mmlu`. */
  benchmark: z.string().min(1).max(64),
  /** Fraction of scored questions answered correctly, 0..1. */
  accuracy: z.number().min(0).max(1),
  /** Questions scored. */
  total: z.number().int().min(0),
  /** A cancelled or failed run keeps its partial result, but it never counts as a model's score. */
  status: z.enum(["completed", "cancelled", "failed"]).optional(),
  /** The model file the answers came from. */
  model_file: modelFileSchema.optional(),
});
export type AccuracyResultCore = z.infer<typeof accuracyResultCoreSchema>;

/** One single-request measurement of a performance run. */
export const performanceSingleTestSchema = z.object({
  prompt_tokens: z.number().int().min(0),
  generated_tokens: z.number().int().min(0),
  /** Prompt processing, tokens per second. */
  pp_tps: z.number().min(0),
  /** Token generation, tokens per second. */
  tg_tps: z.number().min(0),
  ttft_ms: z.number().min(0),
});
export type PerformanceSingleTest = z.infer<typeof performanceSingleTestSchema>;

/** The fields of a performance result the catalog summaries read; `bench.ts` extends it. */
export const performanceResultCoreSchema = z.object({
  result_id: resultIdSchema,
  created_at: isoDateSchema,
  model_id: z.string().min(1).max(1024),
  single: z.array(performanceSingleTestSchema),
  /**
   * `cancelled`: the run was stopped part-way and holds only the tests it finished; it never
   * becomes the model's speed or goes to the community site. Absent means completed.
   */
  status: z.enum(["completed", "cancelled"]).optional(),
  /** The model file that was measured. */
  model_file: modelFileSchema.optional(),
});
export type PerformanceResultCore = z.infer<typeof performanceResultCoreSchema>;

export const accuracyPointSchema = z.object({
  result_id: resultIdSchema,
  benchmark: z.string(),
  accuracy: z.number(),
  created_at: isoDateSchema,
  /** Measured on another file than the model has now (`isEarlierModelFile`). */
  earlier_model_file: z.boolean(),
});
export type AccuracyPoint = z.infer<typeof accuracyPointSchema>;

/**
 * Accuracy of one model over its results: the newest, the highest (newest wins ties) and the
 * highest per benchmark. Empty (`latest: null`) when the model has no results.
 */
export const accuracySummarySchema = z.object({
  latest: accuracyPointSchema.nullable(),
  best: accuracyPointSchema.nullable(),
  best_by_benchmark: z.record(
    z.string(),
    z.object({
      accuracy: z.number(),
      result_id: resultIdSchema,
      created_at: isoDateSchema,
      earlier_model_file: z.boolean(),
    }),
  ),
});
export type AccuracySummary = z.infer<typeof accuracySummarySchema>;

/** The prompt/generation sizes of the canonical single-request test. */
export const canonicalPerformanceTest = { prompt_tokens: 1024, generated_tokens: 128 } as const;

/**
 * Speed of one model: from its newest performance result, the single-request test at 1024
 * prompt / 128 generated tokens, or the nearest one measured (sizes are reported).
 */
export const performanceSummarySchema = z.object({
  pp_tps: z.number(),
  tg_tps: z.number(),
  result_id: resultIdSchema,
  created_at: isoDateSchema,
  prompt_tokens: z.number().int(),
  generated_tokens: z.number().int(),
  /** Measured on another file than the model has now (`isEarlierModelFile`). */
  earlier_model_file: z.boolean(),
});
export type PerformanceSummary = z.infer<typeof performanceSummarySchema>;

/** Query of the result list routes. */
export const resultListQuerySchema = z
  .object({
    model_id: z.string().min(1).max(1024).optional(),
    limit: z.coerce.number().int().min(1).max(10_000).optional(),
  })
  .strict();
export type ResultListQuery = z.infer<typeof resultListQuerySchema>;

/** Body of the reset routes: all results, or only one model's. */
export const resultResetBodySchema = z
  .object({ model_id: z.string().min(1).max(1024).optional() })
  .strict()
  .optional();

export const resultResetResponseSchema = z.object({ deleted: z.number().int() });
export const resultDeleteResponseSchema = z.object({ deleted: z.literal(true), result_id: resultIdSchema });
