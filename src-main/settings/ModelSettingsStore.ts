import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  modelSettingsFileSchema,
  modelSettingsSchema,
  type ModelSettings,
} from "../../src-shared/contracts/settings.js";
import { PerchError } from "../base/PerchError.js";
import type { HealthRegistry } from "../storage/HealthRegistry.js";
import { JsonFile } from "../storage/JsonFile.js";
import { ownEntry } from "../storage/ownEntry.js";
import { normalizeTags } from "./normalizeTags.js";

export interface ModelSettingsStoreOptions {
  /** Folder holding `model_settings.json`. */
  basePath: string;
  /** Where a corrupt file is reported. Defaults to `undefined`. */
  health?: HealthRegistry;
}

/** `<base>/model_settings.json`: the settings of each model, tags normalized on every write. */
export class ModelSettingsStore {
  private readonly file: JsonFile<typeof modelSettingsFileSchema>;
  private readonly listeners = new Set<(modelIds: string[]) => void>();

  constructor(options: ModelSettingsStoreOptions) {
    this.file = new JsonFile({
      path: path.join(path.resolve(options.basePath), "model_settings.json"),
      schema: modelSettingsFileSchema,
      empty: () => ({ version: 1 as const, models: {} }),
      health: options.health,
    });
  }

  /** The model's settings; `{}` (all defaults) when it has none. */
  async get(modelId: string): Promise<ModelSettings> {
    return ownEntry((await this.file.read()).models, modelId) ?? {};
  }

  async all(): Promise<Record<string, ModelSettings>> {
    return (await this.file.read()).models;
  }

  /** Replaces the model's settings (validated, tags normalized). */
  async set(modelId: string, settings: ModelSettings): Promise<ModelSettings> {
    const clean = cleanSettings(settings);
    await this.file.update((draft) => {
      draft.models[modelId] = clean;
    });
    this.emit([modelId]);
    return clean;
  }

  /** Overlays `partial` on the model's settings (a profile or template being applied). */
  async merge(modelId: string, partial: Partial<ModelSettings>): Promise<ModelSettings> {
    let merged: ModelSettings = {};
    await this.file.update((draft) => {
      merged = cleanSettings({ ...(ownEntry(draft.models, modelId) ?? {}), ...partial });
      draft.models[modelId] = merged;
    });
    this.emit([modelId]);
    return merged;
  }

  async delete(modelId: string): Promise<void> {
    await this.file.update((draft) => {
      delete draft.models[modelId];
    });
    this.emit([modelId]);
  }

  /**
   * Re-reads the file; returns the models whose settings changed on disk (every model in it
   * when it had not been read yet, since nothing can say what was in effect).
   */
  async reload(): Promise<string[]> {
    const before = this.file.isCached ? structuredClone(await this.file.read()).models : {};
    const after = (await this.file.reload()).models;
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (id) => !isDeepStrictEqual(before[id], after[id]),
    );
    if (changed.length > 0) this.emit(changed);
    return changed;
  }

  onChange(listener: (modelIds: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(modelIds: string[]): void {
    for (const listener of this.listeners) listener(modelIds);
  }
}

function cleanSettings(settings: ModelSettings): ModelSettings {
  const checked = modelSettingsSchema.safeParse(settings);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new PerchError(
      "invalid_request",
      `Invalid settings at '${issue?.path.join(".")}': ${issue?.message}`,
      {
        param: issue?.path.join("."),
      },
    );
  }
  const clean = checked.data;
  return clean.tags === undefined ? clean : { ...clean, tags: normalizeTags(clean.tags) };
}
