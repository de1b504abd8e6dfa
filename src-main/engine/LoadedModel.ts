import type { Llama, LlamaModel } from "node-llama-cpp";
import { modelSettingsAppliesAt, type ModelSettings } from "../../src-shared/contracts/settings.js";

/** What the catalog tells the engine about a model id. */
export interface ResolvedModel {
  id: string;
  /** Path of the .gguf file (the first shard of a split model). */
  path: string;
  settings: ModelSettings;
}

/**
 * A model the pool has loaded. Other services (the scheduler) hang their per-model state on it
 * with `attach`, so that state is disposed exactly when the model unloads.
 */
export class LoadedModel {
  readonly id: string;
  readonly path: string;
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly threads: number;
  private current: ModelSettings;
  readonly loadedAt = Date.now();
  private readonly attachments = new Map<string, { value: unknown; dispose: () => Promise<void> | void }>();
  private readonly settingsListeners = new Set<(settings: ModelSettings) => void>();

  constructor(init: { resolved: ResolvedModel; llama: Llama; model: LlamaModel; threads: number }) {
    this.id = init.resolved.id;
    this.path = init.resolved.path;
    this.current = init.resolved.settings;
    this.llama = init.llama;
    this.model = init.model;
    this.threads = init.threads;
  }

  /** The settings in effect: those it was loaded with, with later `now` fields applied. */
  get settings(): ModelSettings {
    return this.current;
  }

  /**
   * Applies the fields of `next` that take effect at once (`modelSettingsAppliesAt`: sampling,
   * queue length, TTL...); the context, concurrency, KV cache, chat format and speculation stay
   * as loaded.
   */
  applySettings(next: ModelSettings): void {
    const merged: Record<string, unknown> = { ...this.current };
    for (const [field, appliesAt] of Object.entries(modelSettingsAppliesAt)) {
      if (appliesAt !== "now") continue;
      const value = next[field as keyof ModelSettings];
      if (value === undefined) delete merged[field];
      else merged[field] = value;
    }
    this.current = merged as ModelSettings;
    for (const listener of this.settingsListeners) listener(this.current);
  }

  /**
   * Calls `listener` after each `applySettings`, for state that must follow a setting at once
   * (the prompt cache's limits). Returns an unsubscribe.
   */
  onSettingsApplied(listener: (settings: ModelSettings) => void): () => void {
    this.settingsListeners.add(listener);
    return () => this.settingsListeners.delete(listener);
  }

  /** Returns the attachment under `key`, creating it once with `create`. */
  attach<T>(key: string, create: () => { value: T; dispose: () => Promise<void> | void }): T {
    const existing = this.attachments.get(key);
    if (existing) return existing.value as T;
    const created = create();
    this.attachments.set(key, created);
    return created.value;
  }

  getAttachment<T>(key: string): T | undefined {
    return this.attachments.get(key)?.value as T | undefined;
  }

  async dispose(): Promise<void> {
    const attachments = [...this.attachments.values()].reverse();
    this.attachments.clear();
    for (const attachment of attachments) await attachment.dispose();
    if (!this.model.disposed) await this.model.dispose();
  }
}
