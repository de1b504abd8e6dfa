import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { LlamaContext } from "node-llama-cpp";
import { promptCacheDefaults } from "../../../src-shared/contracts/modelDefaults.js";
import type { PromptCacheFingerprint } from "../../../src-shared/contracts/promptCache.js";
import { createLogger } from "../../base/createLogger.js";
import { errorMessage } from "../../base/describeError.js";
import type { LoadedModel } from "../../engine/LoadedModel.js";
import { PromptCache, type HealthProviders } from "./PromptCache.js";
import { PromptCacheTier } from "./PromptCacheTier.js";

const log = createLogger("prompt-cache");
const mebibyte = 1024 * 1024;

export interface PromptCacheOptions {
  /** `<base>/cache/kv`; without it only the sequences themselves cache prefixes. */
  dir?: string;
  /** Tokens per hash-chain block. Defaults to `128`. */
  blockSize?: number;
  /** Where a tier that cannot open is reported while it stays off. Defaults to none (logged only). */
  health?: HealthProviders;
  /** How long after a failed open the tier is tried again. Defaults to `60_000` ms. */
  retryMs?: number;
}

/**
 * A lane's prompt cache, with its tier in `<dir>/<hash of model id and path>/` when a folder is
 * given. The fingerprint holds everything that shapes a saved state: the model file (size, mtime),
 * the context's layout (size, sequences = KV streams, KV types, flash attention) and the llama.cpp
 * build. A tier that cannot open (a full disk, a folder without write access, another process
 * holding it) leaves the lane without one for the moment, never without a model: it is reported in
 * health and tried again a minute later, at the next request.
 */
export async function openPromptCache(
  loaded: LoadedModel,
  context: LlamaContext,
  options: PromptCacheOptions,
): Promise<PromptCache> {
  const blockSize = options.blockSize ?? 128;
  if (!options.dir) return new PromptCache(undefined, blockSize);
  const folder = createHash("sha256").update(`${loaded.id}\0${loaded.path}`).digest("hex").slice(0, 16);
  const dir = path.join(options.dir, folder);
  const open = () => openTier(loaded, context, dir, blockSize);
  try {
    return new PromptCache(await open(), blockSize);
  } catch (error) {
    log.warn({ dir, err: errorMessage(error) }, "prompt cache tier unavailable: only idle sequences cache");
    return new PromptCache(undefined, blockSize, {
      reopen: open,
      unavailable: errorMessage(error),
      retryMs: options.retryMs,
      health: options.health,
      modelId: loaded.id,
      dir,
    });
  }
}

async function openTier(
  loaded: LoadedModel,
  context: LlamaContext,
  dir: string,
  blockSize: number,
): Promise<PromptCacheTier> {
  const file = await fs.stat(loaded.path);
  const settings = loaded.settings;
  const fingerprint: PromptCacheFingerprint = {
    modelId: loaded.id,
    modelPath: loaded.path,
    modelBytes: file.size,
    modelModifiedMs: file.mtimeMs,
    contextSize: context.contextSize,
    sequences: context.totalSequences,
    kvCacheType: settings.kv_cache_type ?? "f16",
    flashAttention: String(context.flashAttention),
    llamaCpp: loaded.llama.llamaCppRelease.release,
    llamaBuild: `${loaded.llama.buildType}/${String(loaded.llama.gpu)}`,
  };
  const tier = await PromptCacheTier.open({
    dir,
    fingerprint,
    blockSize,
    limits: () => ({
      ramBytes: (loaded.settings.prompt_cache_ram_mib ?? promptCacheDefaults.ram_mib) * mebibyte,
      diskBytes: (loaded.settings.prompt_cache_disk_mib ?? promptCacheDefaults.disk_mib) * mebibyte,
    }),
  });
  // A lowered limit applies at once, not at the next save (which 0 = off never makes).
  loaded.onSettingsApplied(() => {
    tier
      .applyLimits()
      .catch((error: unknown) =>
        log.warn({ dir, err: errorMessage(error) }, "prompt cache: applying new limits failed"),
      );
  });
  return tier;
}
