import type { FastifyInstance } from "fastify";
import {
  applyTemplateBodySchema,
  profileParamsSchema,
  putProfileBodySchema,
  putTemplateBodySchema,
  templateParamsSchema,
} from "../../../src-shared/contracts/models.js";
import { globalSettingsPatchSchema } from "../../../src-shared/contracts/settings.js";
import type { ModelCatalog } from "../../catalog/ModelCatalog.js";
import type { ModelProfilesStore } from "../../settings/ModelProfilesStore.js";
import type { ModelSettingsStore } from "../../settings/ModelSettingsStore.js";
import type { SettingsStore } from "../../settings/SettingsStore.js";
import { parseWith } from "../../base/parseWith.js";
import { parseModelIdParam } from "./adminParams.js";

export interface SettingsRoutesDeps {
  settings: SettingsStore;
  modelSettings: ModelSettingsStore;
  profiles: ModelProfilesStore;
  catalog: ModelCatalog;
}

/**
 * Global settings (`GET/PUT /admin/api/settings`; the API key is write-only), per-model profiles
 * and global templates. Applying a preset overlays its fields on the model's settings.
 */
export async function registerSettingsRoutes(app: FastifyInstance, deps: SettingsRoutesDeps): Promise<void> {
  app.get("/admin/api/settings", async () => deps.settings.toResponse());
  app.put("/admin/api/settings", async (request) => {
    await deps.settings.update(parseWith(globalSettingsPatchSchema, request.body));
    return deps.settings.toResponse();
  });

  app.get("/admin/api/models/:model_id/profiles", async (request) => {
    const modelId = parseModelIdParam(request.params);
    await deps.catalog.get(modelId);
    return { model_id: modelId, profiles: await deps.profiles.listProfiles(modelId) };
  });
  app.put("/admin/api/models/:model_id/profiles/:name", async (request) => {
    const modelId = parseModelIdParam(request.params);
    const { name } = parseWith(profileParamsSchema, request.params, "params");
    await deps.catalog.get(modelId);
    return deps.profiles.putProfile(modelId, name, parseWith(putProfileBodySchema, request.body).settings);
  });
  app.delete("/admin/api/models/:model_id/profiles/:name", async (request) => {
    const modelId = parseModelIdParam(request.params);
    const { name } = parseWith(profileParamsSchema, request.params, "params");
    await deps.profiles.deleteProfile(modelId, name);
    return { deleted: true as const, model_id: modelId, name };
  });
  app.post("/admin/api/models/:model_id/profiles/:name/apply", async (request) => {
    const modelId = parseModelIdParam(request.params);
    const { name } = parseWith(profileParamsSchema, request.params, "params");
    await deps.catalog.get(modelId);
    const profile = await deps.profiles.getProfile(modelId, name);
    return { model_id: modelId, settings: await deps.modelSettings.merge(modelId, profile.settings) };
  });

  app.get("/admin/api/templates", async () => ({ templates: await deps.profiles.listTemplates() }));
  app.put("/admin/api/templates/:name", async (request) => {
    const { name } = parseWith(templateParamsSchema, request.params, "params");
    return deps.profiles.putTemplate(name, parseWith(putTemplateBodySchema, request.body).settings);
  });
  app.delete("/admin/api/templates/:name", async (request) => {
    const { name } = parseWith(templateParamsSchema, request.params, "params");
    await deps.profiles.deleteTemplate(name);
    return { deleted: true as const, name };
  });
  app.post("/admin/api/templates/:name/apply", async (request) => {
    const { name } = parseWith(templateParamsSchema, request.params, "params");
    const { model_id: modelId } = parseWith(applyTemplateBodySchema, request.body);
    await deps.catalog.get(modelId);
    const template = await deps.profiles.getTemplate(name);
    return { model_id: modelId, settings: await deps.modelSettings.merge(modelId, template.settings) };
  });
}
