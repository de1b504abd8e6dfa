import { z } from "zod";

export const speculativeModeSchema = z.enum(["off", "draft", "lookup"]);

export const speculativeSettingsSchema = z
  .object({
    mode: speculativeModeSchema.default("off"),
    /** Model id (or absolute .gguf path) of the draft model, for `mode: "draft"`. */
    draftModel: z.string().min(1).max(512).optional(),
    /** Most tokens drafted ahead per step. */
    maxDraftTokens: z.number().int().min(1).max(64).optional(),
    /** Tokens the target waits for before each decode; 0 would leave predictions unused. */
    minDraftTokens: z.number().int().min(1).max(64).optional(),
  })
  .strict();
export type SpeculativeSettings = z.infer<typeof speculativeSettingsSchema>;

export const samplingSettingsSchema = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    top_k: z.number().int().min(0).max(1000).optional(),
    min_p: z.number().min(0).max(1).optional(),
    presence_penalty: z.number().min(-2).max(2).optional(),
    frequency_penalty: z.number().min(-2).max(2).optional(),
    repetition_penalty: z.number().min(0).max(5).optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();
export type SamplingSettings = z.infer<typeof samplingSettingsSchema>;

/** Per-model settings (`<base>/model_settings.json`). Every field is optional: unset means default. */
export const modelSettingsSchema = z
  .object({
    sampling: samplingSettingsSchema.optional(),
    /** Context size in tokens shared by all sequences' budgets; unset = min(model's train context, 8192). */
    context_size: z.number().int().min(256).max(1_048_576).optional(),
    /** Idle seconds before the model unloads; 0 = never. */
    ttl_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .optional(),
    pinned: z.boolean().optional(),
    alias: z.string().trim().min(1).max(128).optional(),
    /** Parallel sequences (continuous batching slots). Defaults to 8. */
    max_concurrent_requests: z.number().int().min(1).max(64).optional(),
    /** Waiting requests beyond the busy sequences; more answer 429. Defaults to 64. */
    max_queue: z.number().int().min(0).max(10_000).optional(),
    speculative: speculativeSettingsSchema.optional(),
    /** KV cache element type; anything but f16 is experimental. */
    kv_cache_type: z.enum(["f16", "q8_0", "q4_0"]).optional(),
    tags: z.array(z.string()).max(64).optional(),
  })
  .strict();
export type ModelSettings = z.infer<typeof modelSettingsSchema>;
