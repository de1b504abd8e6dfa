import fs from "node:fs/promises";
import os from "node:os";
import type { Llama } from "node-llama-cpp";
import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import type { LoadedModelInfo } from "../../src-shared/contracts/stats.js";
import { PerchError } from "../base/PerchError.js";
import { createLogger } from "../base/createLogger.js";
import { LoadedModel, type ResolvedModel } from "./LoadedModel.js";
import { errorMessage } from "../base/describeError.js";
import { llamaLinesSince } from "./llamaLog.js";

const log = createLogger("engine");

export interface EnginePoolOptions {
  /** Loads the llama.cpp bindings once (see `createLlamaProvider`). */
  getLlama: () => Promise<Llama>;
  /** Maps a model id to its file and settings; throws `model_not_found` for unknown ids. */
  resolveModel: (modelId: string) => Promise<ResolvedModel>;
  /**
   * The model id a client's name means (an alias names its model); asked only for a name that is
   * not loaded under itself. Defaults to the name.
   */
  canonicalId?: (name: string) => Promise<string>;
  /** CPU threads for every context. */
  threads: number;
  /** Bytes all loaded models may use together. Defaults to 75% of total memory. */
  memoryBudgetBytes?: number;
  /** Idle seconds before unloading when a model sets none. Defaults to `900`; 0 = never. */
  defaultTtlSeconds?: number;
}

export type LoadState = LoadedModelInfo["state"];
export type { LoadedModelInfo };

interface Entry {
  id: string;
  state: LoadState;
  promise: Promise<LoadedModel>;
  loaded?: LoadedModel;
  users: number;
  ttlSuspensions: number;
  pinned: boolean;
  ttlSeconds: number;
  estimatedBytes: number;
  lastUsedAt: number;
  ttlTimer?: NodeJS.Timeout;
  /** The models whose draft this one is, with how many holds each (part of `users`). */
  draftFor: Map<string, number>;
  /** Ollama's `keep_alive: 0`: unload as soon as no request holds the model. */
  unloadWhenIdle?: boolean;
  /** Settings changed while the model was loading (applied once it has loaded). */
  latestSettings?: ModelSettings;
}

/**
 * Owns loaded models: just-in-time loading (one load per model however many first requests
 * race), LRU eviction under a memory budget, per-model idle TTL, pinning and explicit unload.
 */
export class EnginePool {
  private readonly entries = new Map<string, Entry>();
  private readonly loadCounts = new Map<string, number>();
  private readonly options: Required<EnginePoolOptions>;
  private readonly listeners = new Set<() => void>();

  constructor(options: EnginePoolOptions) {
    this.options = {
      memoryBudgetBytes: Math.floor(os.totalmem() * 0.75),
      defaultTtlSeconds: 900,
      canonicalId: async (name) => name,
      ...options,
    };
  }

  get threads(): number {
    return this.options.threads;
  }

  /**
   * Gets a loaded model, loading it once if needed; pair every call with `release` (with the same
   * `draftFor`: the model a draft model is held for, which `list` reports).
   */
  async acquire(name: string, hold: { draftFor?: string } = {}): Promise<LoadedModel> {
    // Looked up again after the await: a racing first request may have started the load.
    const modelId = this.entries.has(name) ? name : await this.options.canonicalId(name);
    const entry = this.entries.get(modelId) ?? (await this.startLoad(modelId));
    entry.users += 1;
    if (hold.draftFor) countHold(entry.draftFor, hold.draftFor, 1);
    this.clearTtl(entry);
    try {
      return await entry.promise;
    } catch (error) {
      entry.users -= 1;
      if (hold.draftFor) countHold(entry.draftFor, hold.draftFor, -1);
      throw error;
    }
  }

  release(model: LoadedModel, hold: { draftFor?: string } = {}): void {
    const entry = this.entries.get(model.id);
    if (!entry || entry.loaded !== model) return;
    if (hold.draftFor) countHold(entry.draftFor, hold.draftFor, -1);
    entry.users = Math.max(0, entry.users - 1);
    entry.lastUsedAt = Date.now();
    this.scheduleTtl(entry);
  }

  /** Loads without holding the model (the admin "load" action). */
  async load(modelId: string): Promise<void> {
    const model = await this.acquire(modelId);
    this.release(model);
  }

  async unload(name: string): Promise<boolean> {
    const modelId = this.entries.has(name) ? name : await this.options.canonicalId(name);
    const entry = this.entries.get(modelId);
    if (!entry) return false;
    this.entries.delete(modelId);
    this.clearTtl(entry);
    const loaded = await entry.promise.catch(() => undefined);
    if (loaded) await loaded.dispose();
    log.info({ modelId }, "model unloaded");
    this.emit();
    return true;
  }

  async unloadAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.unload(id)));
  }

  /**
   * A model's settings changed: pinning, the idle TTL and the per-request fields (sampling, queue
   * length) apply at once to a loaded model; the rest waits for its next load. A model still
   * loading gets them when its load completes.
   */
  applySettings(modelId: string, settings: ModelSettings): void {
    const entry = this.entries.get(modelId);
    if (!entry) return;
    entry.pinned = settings.pinned ?? false;
    entry.ttlSeconds = settings.ttl_seconds ?? this.options.defaultTtlSeconds;
    entry.unloadWhenIdle = false;
    entry.latestSettings = settings;
    entry.loaded?.applySettings(settings);
    if (entry.state === "loaded") this.scheduleTtl(entry);
    this.emit();
  }

  /**
   * The model's file was replaced (a new download): the loaded weights are the old file's. It
   * unloads now when idle, else as soon as its last request ends, so the next request loads the
   * new file. Answers whether it was loaded. Also for weights loaded for nothing (`why`: a context
   * that could not be made).
   */
  async retire(modelId: string, why = "model file replaced"): Promise<boolean> {
    const entry = this.entries.get(modelId);
    if (!entry) return false;
    if (entry.state === "loaded" && entry.users === 0) return this.unload(modelId);
    log.info({ modelId, why }, "unloading once its requests end");
    entry.pinned = false;
    entry.unloadWhenIdle = true;
    this.scheduleTtl(entry);
    return true;
  }

  /**
   * Ollama's `keep_alive` for a loaded model, from now until it reloads: unload after `seconds`
   * idle, `0` as soon as it is idle, `null` never. A pinned model stays loaded regardless.
   */
  keepAlive(modelId: string, seconds: number | null): void {
    const entry = this.entries.get(modelId);
    if (!entry || entry.state !== "loaded") return;
    // Perch's TTL 0 means "never".
    entry.ttlSeconds = seconds ?? 0;
    entry.unloadWhenIdle = seconds === 0;
    this.scheduleTtl(entry);
    this.emit();
  }

  /**
   * Counts `bytes` more for a model this caller holds (a context created beside its generation
   * context: the embedding context) against the memory budget, evicting idle models as a load
   * does, or refusing with `insufficient_memory` when the busy and pinned ones leave no room. The
   * bytes count until the returned function runs or the model unloads.
   */
  async reserve(modelId: string, bytes: number, purpose: string): Promise<() => void> {
    const entry = this.entries.get(modelId);
    if (!entry || entry.state !== "loaded") {
      throw new PerchError("generation_failed", `'${modelId}' is not loaded; it cannot hold ${purpose}.`);
    }
    await this.makeRoom(entry, bytes, `${purpose} of '${modelId}'`);
    entry.estimatedBytes += bytes;
    this.emit();
    let released = false;
    return () => {
      if (released || this.entries.get(modelId) !== entry) return;
      released = true;
      entry.estimatedBytes -= bytes;
      this.emit();
    };
  }

  /** Keeps the model from idle unloading (eval and perf runs) until the returned function runs. */
  suspendTtl(modelId: string): () => void {
    let released = false;
    const entry = this.entries.get(modelId);
    if (entry) {
      entry.ttlSuspensions += 1;
      this.clearTtl(entry);
    }
    return () => {
      if (released || !entry) return;
      released = true;
      entry.ttlSuspensions -= 1;
      this.scheduleTtl(entry);
    };
  }

  /** How many times a model file was actually loaded (tests prove JIT loads once). */
  loadCount(modelId: string): number {
    return this.loadCounts.get(modelId) ?? 0;
  }

  /** The settings a loaded model runs with (its load-time fields as loaded); undefined when not loaded. */
  settingsInEffect(modelId: string): ModelSettings | undefined {
    const entry = this.entries.get(modelId);
    return entry?.state === "loaded" ? entry.loaded?.settings : undefined;
  }

  isLoaded(modelId: string): boolean {
    return this.entries.get(modelId)?.state === "loaded";
  }

  list(): LoadedModelInfo[] {
    return [...this.entries.values()].map((entry) => ({
      id: entry.id,
      state: entry.state,
      activeUsers: entry.users - [...entry.draftFor.values()].reduce((sum, holds) => sum + holds, 0),
      pinned: entry.pinned,
      ttlSeconds: entry.ttlSeconds,
      ttlSuspended: entry.ttlSuspensions > 0,
      estimatedBytes: entry.estimatedBytes,
      loadedAt: entry.loaded?.loadedAt,
      lastUsedAt: entry.lastUsedAt,
      ...(entry.draftFor.size > 0 ? { draftFor: [...entry.draftFor.keys()] } : {}),
      ...(entry.unloadWhenIdle ? { unloadWhenIdle: true as const } : {}),
    }));
  }

  /** Called whenever the set of loaded models changes (the tray and dashboard redraw). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  private async startLoad(modelId: string): Promise<Entry> {
    // Resolve before registering would let two racing first requests both load: register a
    // placeholder synchronously, resolve inside its promise.
    const entry: Entry = {
      id: modelId,
      state: "loading",
      promise: Promise.resolve(undefined as unknown as LoadedModel),
      users: 0,
      draftFor: new Map(),
      ttlSuspensions: 0,
      pinned: false,
      ttlSeconds: this.options.defaultTtlSeconds,
      estimatedBytes: 0,
      lastUsedAt: Date.now(),
    };
    entry.promise = this.loadInto(entry);
    entry.promise.catch(() => {
      if (this.entries.get(modelId) === entry) this.entries.delete(modelId);
    });
    this.entries.set(modelId, entry);
    this.emit();
    return entry;
  }

  private async loadInto(entry: Entry): Promise<LoadedModel> {
    const resolved = await this.options.resolveModel(entry.id);
    const fileBytes = (await fs.stat(resolved.path).catch(() => ({ size: 0 }))).size;
    entry.estimatedBytes = Math.ceil(fileBytes * 1.15) + 64 * 1024 * 1024;
    // Settings changed since the load began win over the ones it resolved.
    const current = entry.latestSettings ?? resolved.settings;
    entry.pinned = current.pinned ?? false;
    entry.ttlSeconds = current.ttl_seconds ?? this.options.defaultTtlSeconds;
    await this.makeRoom(entry, entry.estimatedBytes, `model '${entry.id}'`);
    const llama = await this.options.getLlama();
    const started = Date.now();
    let model;
    try {
      model = await llama.loadModel({ modelPath: resolved.path });
    } catch (error) {
      // node-llama-cpp says "Failed to load model"; llama.cpp's own last lines say why.
      const why = (await llamaLinesSince(started)).join("; ");
      const message = why ? `${errorMessage(error)}: ${why}` : errorMessage(error);
      log.error({ modelId: entry.id, err: message }, "model load failed");
      throw new PerchError("model_load_failed", `Could not load model '${entry.id}': ${message}`);
    }
    this.loadCounts.set(entry.id, (this.loadCounts.get(entry.id) ?? 0) + 1);
    const loaded = new LoadedModel({ resolved, llama, model, threads: this.options.threads });
    if (entry.latestSettings) loaded.applySettings(entry.latestSettings);
    entry.loaded = loaded;
    entry.state = "loaded";
    log.info({ modelId: entry.id, ms: Date.now() - started }, "model loaded");
    this.emit();
    return loaded;
  }

  /**
   * Evicts idle models (least recently used first) until `bytes` more for `incoming` fit the budget
   * beside everything counted now (for a load, `incoming` counts nothing yet: its bytes are the
   * model's own estimate). `what` names the memory's use in the refusal.
   */
  private async makeRoom(incoming: Entry, bytes: number, what: string): Promise<void> {
    const budget = this.options.memoryBudgetBytes;
    const loading = incoming.state === "loading";
    // A model being loaded has its estimate set already; it is not yet counted.
    const own = () => (loading ? 0 : incoming.estimatedBytes);
    if (own() + bytes > budget) {
      const [needed, limit] = neededAgainstBudget(own() + bytes, budget);
      throw new PerchError(
        "insufficient_memory",
        `${capitalize(what)} needs about ${needed} but the memory budget is ${limit}.`,
      );
    }
    const used = () =>
      [...this.entries.values()].filter((e) => e !== incoming).reduce((sum, e) => sum + e.estimatedBytes, 0);
    while (used() + own() + bytes > budget) {
      const victim = [...this.entries.values()]
        .filter(
          (e) =>
            e !== incoming && e.state === "loaded" && e.users === 0 && !e.pinned && e.ttlSuspensions === 0,
        )
        .sort((a, b) => a.lastUsedAt - b.lastUsedAt)[0];
      if (!victim) {
        throw new PerchError(
          "insufficient_memory",
          `Not enough memory for ${what}: the loaded models are busy or pinned. Unload one first.`,
        );
      }
      log.info({ evicted: victim.id, for: what }, "evicting least recently used model");
      await this.unload(victim.id);
    }
  }

  private scheduleTtl(entry: Entry): void {
    this.clearTtl(entry);
    if (entry.users > 0 || entry.pinned || entry.ttlSuspensions > 0) return;
    if (entry.ttlSeconds <= 0 && !entry.unloadWhenIdle) return;
    this.armTtl(entry, Date.now() + (entry.unloadWhenIdle ? 0 : entry.ttlSeconds * 1000));
  }

  /**
   * Unloads `entry` at `deadline` (epoch ms), idle then. A timer fires at once for a delay past
   * 2^31-1 ms (24.8 days; Ollama's `keep_alive: "720h"` is common), so a longer wait is re-armed in
   * steps.
   */
  private armTtl(entry: Entry, deadline: number): void {
    const wait = Math.max(0, deadline - Date.now());
    entry.ttlTimer = setTimeout(
      () => {
        if (this.entries.get(entry.id) !== entry || entry.users > 0) return;
        if (wait > longestTimerMs) this.armTtl(entry, deadline);
        else void this.unload(entry.id);
      },
      Math.min(wait, longestTimerMs),
    );
    entry.ttlTimer.unref();
  }

  private clearTtl(entry: Entry): void {
    if (entry.ttlTimer) clearTimeout(entry.ttlTimer);
    entry.ttlTimer = undefined;
  }
}

/** The longest delay `setTimeout` honours (a longer one fires after 1 ms). */
const longestTimerMs = 2 ** 31 - 1;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatGiB(bytes: number, decimals: number): string {
  return `${(bytes / 1024 ** 3).toFixed(decimals)} GiB`;
}

/**
 * `needed` against `budget`, in GiB with as many decimals (1 to 3) as it takes for the two to read
 * apart ('0.503 GiB but the memory budget is 0.500 GiB', not '0.5 GiB ... is 0.5 GiB'); in MiB when
 * even three are not enough.
 */
function neededAgainstBudget(needed: number, budget: number): [string, string] {
  for (const decimals of [1, 2, 3]) {
    const pair: [string, string] = [formatGiB(needed, decimals), formatGiB(budget, decimals)];
    if (pair[0] !== pair[1]) return pair;
  }
  return [`${Math.ceil(needed / 1024 ** 2)} MiB`, `${Math.floor(budget / 1024 ** 2)} MiB`];
}

function countHold(holds: Map<string, number>, modelId: string, change: 1 | -1): void {
  const count = (holds.get(modelId) ?? 0) + change;
  if (count > 0) holds.set(modelId, count);
  else holds.delete(modelId);
}
