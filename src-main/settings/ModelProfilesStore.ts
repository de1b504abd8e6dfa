import path from "node:path";
import type { z } from "zod";
import {
  modelProfilesFileSchema,
  profileSettingsSchema,
  templateSettingsSchema,
  type ModelProfile,
  type ProfileSettings,
  type SettingsTemplate,
  type TemplateSettings,
} from "../../src-shared/contracts/settings.js";
import { PerchError } from "../base/PerchError.js";
import type { HealthRegistry } from "../storage/HealthRegistry.js";
import { JsonFile } from "../storage/JsonFile.js";
import { ownEntry } from "../storage/ownEntry.js";

export interface ModelProfilesStoreOptions {
  /** Folder holding `model_profiles.json`. */
  basePath: string;
  /** Where a corrupt file is reported. Defaults to `undefined`. */
  health?: HealthRegistry;
}

/**
 * `<base>/model_profiles.json`: named settings presets. Profiles belong to one model and may
 * carry universal and model-specific fields; templates are global and carry universal fields
 * only (see `modelSettingsFieldClasses`). Names match case-insensitively.
 */
export class ModelProfilesStore {
  private readonly file: JsonFile<typeof modelProfilesFileSchema>;

  constructor(options: ModelProfilesStoreOptions) {
    this.file = new JsonFile({
      path: path.join(path.resolve(options.basePath), "model_profiles.json"),
      schema: modelProfilesFileSchema,
      empty: () => ({ version: 1 as const, profiles: {}, templates: [] }),
      health: options.health,
    });
  }

  async listProfiles(modelId: string): Promise<ModelProfile[]> {
    return ownEntry((await this.file.read()).profiles, modelId) ?? [];
  }

  async getProfile(modelId: string, name: string): Promise<ModelProfile> {
    const profile = (await this.listProfiles(modelId)).find((candidate) => sameName(candidate.name, name));
    if (!profile) throw new PerchError("not_found", `Model '${modelId}' has no profile '${name}'.`);
    return profile;
  }

  async putProfile(modelId: string, name: string, settings: ProfileSettings): Promise<ModelProfile> {
    const profile: ModelProfile = {
      name: name.trim(),
      settings: validate(profileSettingsSchema, settings, "profile"),
      updated_at: new Date().toISOString(),
    };
    await this.file.update((draft) => {
      draft.profiles[modelId] = upsert(ownEntry(draft.profiles, modelId) ?? [], profile);
    });
    return profile;
  }

  async deleteProfile(modelId: string, name: string): Promise<void> {
    await this.getProfile(modelId, name);
    await this.file.update((draft) => {
      const remaining = (ownEntry(draft.profiles, modelId) ?? []).filter(
        (profile) => !sameName(profile.name, name),
      );
      if (remaining.length > 0) draft.profiles[modelId] = remaining;
      else delete draft.profiles[modelId];
    });
  }

  async listTemplates(): Promise<SettingsTemplate[]> {
    return (await this.file.read()).templates;
  }

  async getTemplate(name: string): Promise<SettingsTemplate> {
    const template = (await this.listTemplates()).find((candidate) => sameName(candidate.name, name));
    if (!template) throw new PerchError("not_found", `No template '${name}'.`);
    return template;
  }

  async putTemplate(name: string, settings: TemplateSettings): Promise<SettingsTemplate> {
    const template: SettingsTemplate = {
      name: name.trim(),
      settings: validate(templateSettingsSchema, settings, "template"),
      updated_at: new Date().toISOString(),
    };
    await this.file.update((draft) => {
      draft.templates = upsert(draft.templates, template);
    });
    return template;
  }

  async deleteTemplate(name: string): Promise<void> {
    await this.getTemplate(name);
    await this.file.update((draft) => {
      draft.templates = draft.templates.filter((template) => !sameName(template.name, name));
    });
  }

  async reload(): Promise<void> {
    await this.file.reload();
  }
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function upsert<T extends { name: string }>(list: T[], item: T): T[] {
  const index = list.findIndex((candidate) => sameName(candidate.name, item.name));
  return index === -1 ? [...list, item] : list.map((candidate, i) => (i === index ? item : candidate));
}

function validate<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const checked = schema.safeParse(input);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  throw new PerchError(
    "invalid_request",
    `Invalid ${what} settings at '${issue?.path.join(".")}': ${issue?.message}`,
  );
}
