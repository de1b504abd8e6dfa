import { z } from "zod";
import { isoDateTimeSchema } from "./primitives.js";
import { speculativeModeSchema } from "./settings.js";

const count = z.number().int().min(0);

const tierStatsSchema = z
  .object({
    entries: count,
    bytes: count,
    /** The model's setting in bytes; 0 = this tier is off. */
    limitBytes: count,
  })
  .strict();

/**
 * Prompt-cache figures since the model loaded: prefixes reused from the sequence that still held
 * them (slot) or restored from an evicted sequence's saved state (RAM or disk tier).
 */
export const promptCacheStatsSchema = z
  .object({
    /** Requests admitted to a sequence (each one looks for a cached prefix). */
    lookups: count,
    /** Requests that reused a prefix still in their sequence. */
    slotHits: count,
    /** Requests whose prefix was restored from the RAM or disk tier. */
    tierHits: count,
    /** `(slotHits + tierHits) / lookups`; 0 before the first request. */
    hitRate: z.number().min(0).max(1),
    /** Prompt tokens not evaluated again thanks to a hit, and all prompt tokens admitted. */
    reusedTokens: count,
    promptTokens: count,
    /** Sequence states saved on eviction, and restores that failed (the prompt was evaluated instead). */
    saves: count,
    restoreFailures: count,
    ram: tierStatsSchema,
    disk: tierStatsSchema,
  })
  .strict();
export type PromptCacheStats = z.infer<typeof promptCacheStatsSchema>;

/**
 * How concurrent one-token decodes were grouped (README: concurrent decoding): each decode of one
 * token per sequence is timed by its number of sequences, and waiting sequences are decoded in
 * chunks where the timings say that is faster than all together.
 */
export const decodeShapingStatsSchema = z
  .object({
    enabled: z.boolean(),
    /** Decodes of one token per sequence since the model loaded (the first few, cold, not counted). */
    decodes: count,
    /** Of those, the ones that left waiting sequences for a following decode. */
    chunkedDecodes: count,
    /** Median time from the end of such a decode to the start of the next one (0: none yet). */
    gapMs: z.number().min(0),
    /** Median time of recent decodes by number of sequences in them. */
    sizes: z
      .array(z.object({ size: z.number().int().min(1), ms: z.number().min(0), samples: count }).strict())
      .max(256),
  })
  .strict();
export type DecodeShapingStats = z.infer<typeof decodeShapingStatsSchema>;

/**
 * How many threads small decodes ran on (README: concurrent decoding): each decode of up to 16
 * tokens is timed by size on one thread and on the configured count, and runs on the faster.
 */
export const decodeThreadsStatsSchema = z
  .object({
    /** The configured thread count (the other choice is one thread). */
    threads: z.number().int().min(1),
    /** Decodes whose thread count was chosen, and those of them run on one thread. */
    decodes: count,
    oneThreadDecodes: count,
    /** Median time of recent decodes by size bucket (1, 2, 4, 8, 16 tokens) and thread count. */
    sizes: z
      .array(
        z
          .object({
            tokens: z.number().int().min(1),
            oneThreadMs: z.number().min(0).nullable(),
            allThreadsMs: z.number().min(0).nullable(),
            chosenThreads: z.number().int().min(1),
          })
          .strict(),
      )
      .max(64),
  })
  .strict();
export type DecodeThreadsStats = z.infer<typeof decodeThreadsStatsSchema>;

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
    promptCache: promptCacheStatsSchema,
    decodeShaping: decodeShapingStatsSchema,
    decodeThreads: decodeThreadsStatsSchema,
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
        /** The loaded models' prompt caches together. */
        promptCache: z
          .object({
            lookups: count,
            hits: count,
            hitRate: z.number().min(0).max(1),
            reusedTokens: count,
            ramBytes: count,
            diskBytes: count,
          })
          .strict(),
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
    /**
     * Loaded models drafting with this one (speculative decoding). They hold it while they are
     * loaded; `activeUsers` counts the requests and runs using it besides.
     */
    draftFor: z.array(z.string()).optional(),
    /** It unloads as soon as its last request ends (Ollama's `keep_alive: 0`, a replaced file). */
    unloadWhenIdle: z.literal(true).optional(),
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
