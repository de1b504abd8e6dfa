import { z } from "zod";
import { isoDateTimeSchema } from "./primitives.js";
import { speculativeModeSchema } from "./settings.js";

const count = z.number().int().min(0);

/** One loaded model's scheduling state (`GET /admin/api/stats`, the tray). */
export const modelSchedulerStatsSchema = z
  .object({
    modelId: z.string(),
    /** Sequences of the model's context (`max_concurrent_requests`). */
    sequences: count,
    activeSequences: count,
    queueDepth: count,
    maxQueue: count,
    /** Tokens each sequence can hold. */
    contextSize: count,
    /** Tokens generated over the last minute. */
    generatedTokensLastMinute: count,
    /** `generatedTokensLastMinute / 60`. */
    tokensPerSecond: z.number().min(0),
    requests: z.object({ completed: count, cancelled: count, rejected: count, failed: count }).strict(),
    speculation: z
      .object({
        /** The configured mode. */
        mode: speculativeModeSchema,
        /** False once speculation was switched off (repeated failures, draft model unloaded). */
        enabled: z.boolean(),
        /** Request id owning live speculation state, `null` when none does. */
        owner: z.string().nullable(),
        sessionsCreated: count,
        sessionsDropped: count,
        validatedTokens: count,
        refutedTokens: count,
      })
      .strict(),
  })
  .strict();
export type ModelSchedulerStats = z.infer<typeof modelSchedulerStatsSchema>;

/** The scheduler's live figures, per model and summed. */
export const schedulerStatsSchema = z
  .object({
    models: z.array(modelSchedulerStatsSchema),
    totals: z
      .object({
        activeSequences: count,
        queueDepth: count,
        generatedTokensLastMinute: count,
        tokensPerSecond: z.number().min(0),
      })
      .strict(),
  })
  .strict();
export type SchedulerStats = z.infer<typeof schedulerStatsSchema>;

/** What the engine pool holds for one model id (times are epoch milliseconds). */
export const loadedModelInfoSchema = z
  .object({
    id: z.string(),
    state: z.enum(["loading", "loaded"]),
    activeUsers: count,
    pinned: z.boolean(),
    ttlSeconds: z.number().min(0),
    /** An accuracy or performance run holds the model: its TTL does not run. */
    ttlSuspended: z.boolean(),
    estimatedBytes: z.number().min(0),
    loadedAt: z.number().optional(),
    lastUsedAt: z.number(),
  })
  .strict();
export type LoadedModelInfo = z.infer<typeof loadedModelInfoSchema>;

/** `GET /admin/api/stats`: the scheduler's figures plus what the pool holds, as of `at`. */
export const serverStatsSchema = schedulerStatsSchema
  .extend({
    loadedModels: z.array(loadedModelInfoSchema),
    at: isoDateTimeSchema,
  })
  .strict();
export type ServerStats = z.infer<typeof serverStatsSchema>;
