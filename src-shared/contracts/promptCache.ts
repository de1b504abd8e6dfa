import { z } from "zod";

const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));

/** One saved sequence state: `<id>.state` beside the index. */
export const promptCacheEntrySchema = z
  .object({
    id: hex(32),
    /** The hash chain of its tokens' full blocks (`prefixBlockHashes`). */
    blocks: z.array(hex(32)).min(1),
    /** Tokens the state holds (its KV cells). */
    tokens: z.number().int().min(1),
    /** Size of the state file, and its SHA-256: a file that differs is removed, never loaded. */
    bytes: z.number().int().min(1),
    sha256: hex(64),
    /** Epoch milliseconds of its last save or restore (LRU). */
    lastUsedAt: z.number(),
  })
  .strict();
export type PromptCacheEntry = z.infer<typeof promptCacheEntrySchema>;

/**
 * `<base>/cache/kv/<model>/index.json`: the disk tier of one model's prompt cache. `fingerprint`
 * names what the states were computed with (the model file, its load settings, the llama.cpp
 * build); when any of it differs the folder is emptied.
 */
export const promptCacheIndexSchema = z
  .object({
    version: z.literal(1),
    fingerprint: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    blockSize: z.number().int().min(1),
    entries: z.array(promptCacheEntrySchema),
  })
  .strict();
export type PromptCacheIndex = z.infer<typeof promptCacheIndexSchema>;
export type PromptCacheFingerprint = PromptCacheIndex["fingerprint"];
