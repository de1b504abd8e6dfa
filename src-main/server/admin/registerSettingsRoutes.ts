import type { FastifyInstance } from "fastify";
import type { ModelCatalog } from "../../catalog/ModelCatalog.js";
import type { EngineView } from "../../engine/EngineView.js";
import type { ModelProfilesStore } from "../../settings/ModelProfilesStore.js";
import type { ModelSettingsStore } from "../../settings/ModelSettingsStore.js";
import type { SettingsStore } from "../../settings/SettingsStore.js";
import { serveRoute } from "../serveRoute.js";
import { checkDraftModel } from "./registerModelsRoutes.js";

export interface SettingsRoutesDeps {
  settings: SettingsStore;
  modelSettings: ModelSettingsStore;
  profiles: ModelProfilesStore;
  catalog: ModelCatalog;
  engine: Pick<EngineView, "applySettings">;
}

/**
 * Global settings (`GET/PUT /admin/api/settings`; the API key is write-only), per-model profiles
 * and global templates. Applying a preset overlays its fields on the model's settings and hands
 * them to the engine, as a settings PUT does: a loaded model takes sampling, TTL and queue length at
 * once, the rest at its next load.
 */
export async function registerSettingsRoutes(app: FastifyInstance, deps: SettingsRoutesDeps): Promise<void> {
  serveRoute(app, "getSettings", () => deps.settings.toResponse());
  serveRoute(app, "putSettings", async ({ body }) => {
    await deps.settings.update(body);
    return deps.settings.toResponse();
  });

  serveRoute(app, "listProfiles", async ({ params }) => {
    await deps.catalog.get(params.model_id);
    return { model_id: params.model_id, profiles: await deps.profiles.listProfiles(params.model_id) };
  });
  serveRoute(app, "putProfile", async ({ params, body }) => {
    await deps.catalog.get(params.model_id);
    // A draft model Perch does not have is refused as a settings PUT refuses it (it was saved,
    // and speculation was silently off once the profile was applied).
    const speculative = body.settings.speculative && (await checkDraftModel(deps, body.settings.speculative));
    return deps.profiles.putProfile(params.model_id, params.name, {
      ...body.settings,
      ...(speculative ? { speculative } : {}),
    });
  });
  serveRoute(app, "deleteProfile", async ({ params }) => {
    await deps.profiles.deleteProfile(params.model_id, params.name);
    return { deleted: true as const, model_id: params.model_id, name: params.name };
  });
  serveRoute(app, "applyProfile", async ({ params }) => {
    await deps.catalog.get(params.model_id);
    const profile = await deps.profiles.getProfile(params.model_id, params.name);
    // Its draft model may have been deleted since the profile was saved.
    if (profile.settings.speculative) await checkDraftModel(deps, profile.settings.speculative);
    const settings = await deps.modelSettings.merge(params.model_id, profile.settings);
    deps.engine.applySettings(params.model_id, settings);
    return { model_id: params.model_id, settings };
  });

  serveRoute(app, "listTemplates", async () => ({ templates: await deps.profiles.listTemplates() }));
  serveRoute(app, "putTemplate", ({ params, body }) => deps.profiles.putTemplate(params.name, body.settings));
  serveRoute(app, "deleteTemplate", async ({ params }) => {
    await deps.profiles.deleteTemplate(params.name);
    return { deleted: true as const, name: params.name };
  });
  serveRoute(app, "applyTemplate", async ({ params, body }) => {
    await deps.catalog.get(body.model_id);
    const template = await deps.profiles.getTemplate(params.name);
    const settings = await deps.modelSettings.merge(body.model_id, template.settings);
    deps.engine.applySettings(body.model_id, settings);
    return { model_id: body.model_id, settings };
  });
}
