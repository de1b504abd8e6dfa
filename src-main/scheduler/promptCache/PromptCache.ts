import type { Token } from "node-llama-cpp";
import type { PromptCacheStats } from "../../../src-shared/contracts/stats.js";
import { createLogger } from "../../base/createLogger.js";
import { errorMessage } from "../../base/describeError.js";
import { minimumPromptSimilarity, sharedPrefixLength } from "../pickSlot.js";
import type { HealthWarning } from "../../../src-shared/contracts/catalog.js";
import type { PromptCacheTier, StatefulSequence, TierMatch } from "./PromptCacheTier.js";

const log = createLogger("prompt-cache");

/** Where current warnings are reported (the core's health registry). */
export interface HealthProviders {
  addProvider(provider: () => Omit<HealthWarning, "at">[]): () => void;
}

export interface PromptCacheRetry {
  /** Opens the tier again (it could not open when the model loaded). */
  reopen: () => Promise<PromptCacheTier>;
  /** Why it could not. */
  unavailable: string;
  /** How long after a failed open the next one is tried (at a request). Defaults to `60_000` ms. */
  retryMs?: number;
  /** Where the tier's absence is reported while it lasts. */
  health?: HealthProviders;
  modelId: string;
  dir: string;
}

/**
 * One lane's prompt cache: the sequences keep their KV while idle (`pickSlot` routes a prompt to
 * the one sharing its longest prefix), and with a tier, a sequence about to be overwritten is
 * saved first and a longer prefix in the tier is restored into it. The cache never fails a
 * request: whatever goes wrong, the prompt is evaluated in full and the failure is logged. A tier
 * that could not open (a full disk when the model loaded) is tried again at a later request, at
 * most once a minute, and reported in health until it opens.
 */
export class PromptCache {
  private readonly counts = {
    lookups: 0,
    slotHits: 0,
    tierHits: 0,
    reusedTokens: 0,
    promptTokens: 0,
    saves: 0,
    restoreFailures: 0,
  };

  private tier: PromptCacheTier | undefined;
  private unavailable: string | undefined;
  private nextAttemptAt = 0;
  private opening: Promise<void> | undefined;
  private closed = false;
  private readonly removeHealth: (() => void) | undefined;

  constructor(
    tier: PromptCacheTier | undefined,
    /** Tokens a sequence must be about to lose before its state is worth saving. */
    private readonly minimumSavedTokens: number,
    private readonly retry?: PromptCacheRetry,
  ) {
    this.tier = tier;
    if (!retry) return;
    this.unavailable = retry.unavailable;
    this.nextAttemptAt = Date.now() + retryDelayMs(retry);
    this.removeHealth = retry.health?.addProvider(() =>
      this.unavailable === undefined
        ? []
        : [
            {
              code: "storage_error" as const,
              message:
                `The prompt cache of ${retry.modelId} is off (its folder could not be opened: ` +
                `${this.unavailable}); long prompts are evaluated in full. Perch tries again every minute.`,
              path: retry.dir,
              model_id: retry.modelId,
            },
          ],
    );
  }

  /** Starts opening the tier again when it is missing and its retry time has come. */
  private retryTier(): void {
    const retry = this.retry;
    if (!retry || this.tier || this.opening || this.closed || Date.now() < this.nextAttemptAt) return;
    this.nextAttemptAt = Date.now() + retryDelayMs(retry);
    this.opening = retry
      .reopen()
      .then(
        async (tier) => {
          if (this.closed) return void (await tier.close());
          this.tier = tier;
          this.unavailable = undefined;
          this.removeHealth?.();
          log.info({ dir: retry.dir }, "prompt cache tier open again");
        },
        (error: unknown) => {
          this.unavailable = errorMessage(error);
          log.warn({ dir: retry.dir, err: this.unavailable }, "prompt cache tier still unavailable");
        },
      )
      .catch((error: unknown) => log.warn({ err: errorMessage(error) }, "prompt cache reopen failed"))
      .finally(() => {
        this.opening = undefined;
      });
  }

  /**
   * Makes `sequence` (owned by the caller, about to run `promptTokens`) hold the longest cached
   * prefix: saves what it holds when the prompt would erase enough of it, then restores a tier
   * entry that shares more with the prompt than the sequence does. Resolves whether it restored.
   */
  async prepare(sequence: StatefulSequence, promptTokens: readonly Token[]): Promise<boolean> {
    // Not awaited: this prompt is evaluated as it is, the next ones find the tier.
    this.retryTier();
    const tier = this.tier;
    if (!tier || tier.isClosed) return false;
    try {
      const held = sequence.contextTokens;
      const shared = sharedPrefixLength(held, promptTokens);
      const found = tier.find(promptTokens);
      const match = found && found.tokens > shared ? found : undefined;
      if (held.length - shared >= this.minimumSavedTokens) await this.save(sequence, match);
      if (!match) return false;
      const outcome = await tier.restore(match, sequence);
      // Trimmed away by another sequence's save meanwhile: a miss, not a failure.
      if (outcome !== "rejected") return outcome === "restored";
      log.warn({ tokens: match.tokens }, "prompt cache entry failed verification: evaluating the prompt");
    } catch (error) {
      log.warn({ err: errorMessage(error) }, "prompt cache restore failed: evaluating the prompt");
    }
    this.counts.restoreFailures += 1;
    return false;
  }

  /**
   * Counts one admitted request (`cachedTokens`: prompt tokens it did not evaluate). A hit reused
   * more than the chat template's opening: the share of the prompt `pickSlot` routes by.
   */
  record(promptTokens: number, cachedTokens: number, restored: boolean): void {
    this.counts.lookups += 1;
    this.counts.promptTokens += promptTokens;
    this.counts.reusedTokens += cachedTokens;
    if (cachedTokens <= promptTokens * minimumPromptSimilarity) return;
    if (restored) this.counts.tierHits += 1;
    else this.counts.slotHits += 1;
  }

  /**
   * The model unloads: the idle sequences' states go to the tier, the RAM tier to disk. Each keeps
   * when it was last used (`usedAt`, wall-clock ms), so the tier's least-recently-used order is the
   * conversations' own, not the order the slots happen to be saved in.
   */
  async close(idle: readonly { sequence: StatefulSequence; usedAt?: number }[]): Promise<void> {
    this.closed = true;
    this.removeHealth?.();
    await this.opening;
    if (!this.tier || this.tier.isClosed) return;
    const oldestFirst = [...idle].sort((a, b) => (a.usedAt ?? 0) - (b.usedAt ?? 0));
    for (const { sequence, usedAt } of oldestFirst) {
      if (sequence.contextTokens.length >= this.minimumSavedTokens)
        await this.save(sequence, undefined, usedAt);
    }
    await this.tier.close().catch((error: unknown) => {
      log.warn({ err: errorMessage(error) }, "could not write the prompt cache on unload");
    });
  }

  stats(): PromptCacheStats {
    const { lookups, slotHits, tierHits } = this.counts;
    const tiers = this.tier?.stats() ?? {
      ram: { entries: 0, bytes: 0, limitBytes: 0 },
      disk: { entries: 0, bytes: 0, limitBytes: 0 },
    };
    return { ...this.counts, hitRate: lookups > 0 ? (slotHits + tierHits) / lookups : 0, ...tiers };
  }

  private async save(sequence: StatefulSequence, keep?: TierMatch, usedAt?: number): Promise<void> {
    try {
      if (await this.tier?.save(sequence, keep, usedAt)) this.counts.saves += 1;
    } catch (error) {
      log.warn({ err: errorMessage(error) }, "could not save a sequence to the prompt cache");
    }
  }
}

const retryDelayMs = (retry: PromptCacheRetry) => retry.retryMs ?? 60_000;
