import { z } from "zod";
import { catalogEntrySchema, modelIdSchema } from "./catalog.js";
import { accuracySummarySchema, performanceSummarySchema } from "./results.js";
import {
  modelProfileSchema,
  modelSettingsSchema,
  presetNameSchema,
  profileSettingsSchema,
  settingsTemplateSchema,
  templateSettingsSchema,
} from "./settings.js";

/*
 * Admin model routes. Model ids contain '/', so in a URL path the id is ONE segment encoded with
 * `encodeURIComponent` (`modelIdPath` in catalog.ts):
 *   GET    /admin/api/models
 *   GET    /admin/api/models/{id}
 *   PUT    /admin/api/models/{id}/settings
 *   DELETE /admin/api/models/{id}
 *   POST   /admin/api/models/{id}/load, POST /admin/api/models/{id}/unload
 *   POST   /admin/api/models/{id}/check-update
 *   POST   /admin/api/models/check-updates
 *   POST   /admin/api/rescan, POST /admin/api/reload
 */

/** Path params of every `/admin/api/models/{model_id}...` route (already decoded by the router). */
export const modelIdParamsSchema = z.object({ model_id: modelIdSchema }).strict();

/** The engine's view of a model; `unloaded` when the pool does not hold it. */
export const modelLoadStateSchema = z.object({
  state: z.enum(["unloaded", "loading", "loaded"]),
  pinned: z.boolean(),
  active_users: z.number().int(),
  ttl_seconds: z.number().int().nullable(),
  loaded_at: z.number().nullable(),
  last_used_at: z.number().nullable(),
});
export type ModelLoadState = z.infer<typeof modelLoadStateSchema>;

/** One row of `GET /admin/api/models`: catalog entry + settings + summaries + engine state. */
export const modelRowSchema = catalogEntrySchema.extend({
  /** The model's complete stored settings (empty object = all defaults). */
  settings: modelSettingsSchema,
  /** The user's tags (same as `settings.tags`, never undefined). */
  tags: z.array(z.string()),
  /** Tags the header suggests (`Dense` / `MoE`); shown as suggestions, never applied. */
  suggested_tags: z.array(z.string()),
  accuracy: accuracySummarySchema,
  performance: performanceSummarySchema.nullable(),
  load: modelLoadStateSchema,
});
export type ModelRow = z.infer<typeof modelRowSchema>;

export const modelListResponseSchema = z.object({
  models: z.array(modelRowSchema),
  /** The effective model folders (an empty setting means `<base>/models`). */
  models_dirs: z.array(z.string()),
});
export type ModelListResponse = z.infer<typeof modelListResponseSchema>;

/** Body of `PUT /admin/api/models/{id}/settings`: the complete new settings (tags normalized). */
export const putModelSettingsBodySchema = modelSettingsSchema;
export const putModelSettingsResponseSchema = z.object({
  model_id: modelIdSchema,
  settings: modelSettingsSchema,
});

export const deleteModelResponseSchema = z.object({
  deleted: z.literal(true),
  model_id: modelIdSchema,
  files: z.array(z.string()),
});

export const rescanResponseSchema = z.object({
  added: z.array(z.string()),
  missing: z.array(z.string()),
  total: z.number().int(),
  models_dirs: z.array(z.string()),
});
export type RescanResponse = z.infer<typeof rescanResponseSchema>;

export const reloadResponseSchema = rescanResponseSchema.extend({
  /** Loaded models whose settings changed and that were idle, so they were unloaded to apply them. */
  unloaded: z.array(z.string()),
  /** Loaded models whose settings changed but that are busy: they keep the old settings for now. */
  kept_busy: z.array(z.string()),
});
export type ReloadResponse = z.infer<typeof reloadResponseSchema>;

/*
 * Profiles (per model) and templates (global):
 *   GET    /admin/api/models/{id}/profiles
 *   PUT    /admin/api/models/{id}/profiles/{name}       body: { settings }
 *   DELETE /admin/api/models/{id}/profiles/{name}
 *   POST   /admin/api/models/{id}/profiles/{name}/apply
 *   GET    /admin/api/templates
 *   PUT    /admin/api/templates/{name}                  body: { settings }
 *   DELETE /admin/api/templates/{name}
 *   POST   /admin/api/templates/{name}/apply            body: { model_id }
 */
export const profileParamsSchema = z.object({ model_id: modelIdSchema, name: presetNameSchema }).strict();
export const templateParamsSchema = z.object({ name: presetNameSchema }).strict();
export const putProfileBodySchema = z.object({ settings: profileSettingsSchema }).strict();
export const putTemplateBodySchema = z.object({ settings: templateSettingsSchema }).strict();
export const applyTemplateBodySchema = z.object({ model_id: modelIdSchema }).strict();
export const profileListResponseSchema = z.object({
  model_id: modelIdSchema,
  profiles: z.array(modelProfileSchema),
});
export const templateListResponseSchema = z.object({ templates: z.array(settingsTemplateSchema) });

/**
 * Body of `POST /admin/api/models/{id}/load`: optional settings saved to the model before it loads
 * (as the dashboard saves them); a new `context_size` reloads an idle loaded model.
 */
export const loadModelBodySchema = modelSettingsSchema
  .pick({ context_size: true, ttl_seconds: true, pinned: true })
  .strict();
export type LoadModelBody = z.infer<typeof loadModelBodySchema>;
export const loadModelResponseSchema = z.object({
  model_id: modelIdSchema,
  loaded: z.literal(true),
  settings: modelSettingsSchema,
});

/** `POST /admin/api/models/{id}/unload` (409 `conflict` while a request uses the model). */
export const unloadModelResponseSchema = z.object({ model_id: modelIdSchema, unloaded: z.boolean() });
/** What applying a profile or template answers: the model's settings after the overlay. */
export const applyPresetResponseSchema = z.object({ model_id: modelIdSchema, settings: modelSettingsSchema });
export const deleteProfileResponseSchema = z.object({
  deleted: z.literal(true),
  model_id: modelIdSchema,
  name: z.string(),
});
export const deleteTemplateResponseSchema = z.object({ deleted: z.literal(true), name: z.string() });
