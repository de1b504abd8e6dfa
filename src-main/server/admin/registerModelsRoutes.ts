import type { FastifyInstance } from "fastify";
import type { ModelListResponse } from "../../../src-shared/contracts/models.js";
import { loadModelBodySchema, putModelSettingsBodySchema } from "../../../src-shared/contracts/models.js";
import { PerchError } from "../../base/PerchError.js";
import type { ModelCatalog } from "../../catalog/ModelCatalog.js";
import type { ModelSummaries } from "../../catalog/ModelSummaries.js";
import { listModelRows } from "../../catalog/listModelRows.js";
import { reloadModels } from "../../catalog/reloadModels.js";
import { toModelRow } from "../../catalog/toModelRow.js";
import type { UpdateChecker } from "../../catalog/UpdateChecker.js";
import type { ModelProfilesStore } from "../../settings/ModelProfilesStore.js";
import type { ModelSettingsStore } from "../../settings/ModelSettingsStore.js";
import type { SettingsStore } from "../../settings/SettingsStore.js";
import { parseWith } from "../../base/parseWith.js";
import type { EngineView } from "../../engine/EngineView.js";
import { parseModelIdParam } from "./adminParams.js";

export interface ModelsRoutesDeps {
  catalog: ModelCatalog;
  modelSettings: ModelSettingsStore;
  profiles: ModelProfilesStore;
  settings: SettingsStore;
  summaries: ModelSummaries;
  updates: UpdateChecker;
  engine: EngineView;
}

/**
 * The model manager's routes. Model ids contain '/', so a path carries the id as one segment
 * encoded with `encodeURIComponent` (`/admin/api/models/org%2Frepo%2Fmodel/settings`).
 */
export async function registerModelsRoutes(app: FastifyInstance, deps: ModelsRoutesDeps): Promise<void> {
  const row = async (modelId: string) => {
    const entry = await deps.catalog.get(modelId);
    const loaded = deps.engine.list().find((info) => info.id === modelId);
    return toModelRow(
      entry,
      await deps.modelSettings.get(modelId),
      await deps.summaries.get(modelId),
      loaded,
    );
  };

  app.get("/admin/api/models", async (): Promise<ModelListResponse> => listModelRows(deps));

  app.get("/admin/api/models/:model_id", async (request) => row(parseModelIdParam(request.params)));

  app.put("/admin/api/models/:model_id/settings", async (request) => {
    const modelId = parseModelIdParam(request.params);
    const body = parseWith(putModelSettingsBodySchema, request.body);
    await deps.catalog.get(modelId);
    const settings = await deps.modelSettings.set(modelId, body);
    // Pinning, TTL, sampling and queue length apply at once; the rest on the next load
    // (`modelSettingsAppliesAt`; see POST /admin/api/reload).
    deps.engine.applySettings(modelId, settings);
    return { model_id: modelId, settings };
  });

  app.delete("/admin/api/models/:model_id", async (request) => {
    const modelId = parseModelIdParam(request.params);
    await deps.catalog.get(modelId);
    await unloadIdle(deps.engine, modelId, "delete");
    const files = await deps.catalog.deleteModel(modelId);
    return { deleted: true as const, model_id: modelId, files };
  });

  app.post("/admin/api/models/:model_id/load", async (request) => {
    const modelId = parseModelIdParam(request.params);
    const body = parseWith(loadModelBodySchema, request.body ?? {});
    await deps.catalog.get(modelId);
    const current = await deps.modelSettings.get(modelId);
    let settings = current;
    if (Object.entries(body).some(([key, value]) => current[key as keyof typeof body] !== value)) {
      // The context is sized at load time: a new size needs a fresh load, refused while busy —
      // and refused before anything is saved, so a 409 leaves the model's settings as they were.
      const resize = body.context_size !== undefined && body.context_size !== current.context_size;
      if (resize) assertIdle(deps.engine, modelId, "resize");
      settings = await deps.modelSettings.set(modelId, { ...current, ...body });
      deps.engine.applySettings(modelId, settings);
      if (resize) await unloadIdle(deps.engine, modelId, "resize");
    }
    await deps.engine.load(modelId);
    return { model_id: modelId, loaded: true as const, settings };
  });

  app.post("/admin/api/models/:model_id/unload", async (request) => {
    const modelId = parseModelIdParam(request.params);
    await deps.catalog.get(modelId);
    return { model_id: modelId, unloaded: await unloadIdle(deps.engine, modelId, "unload") };
  });

  app.post("/admin/api/models/check-updates", async () => ({ results: await deps.updates.checkAll() }));
  app.post("/admin/api/models/:model_id/check-update", async (request) =>
    deps.updates.check(parseModelIdParam(request.params)),
  );

  app.post("/admin/api/rescan", async () => deps.catalog.rescan());
  app.post("/admin/api/reload", async () => reloadModels(deps));
}

/** Throws 409 `conflict` while a request uses the model (or it is loading). */
function assertIdle(engine: EngineView, modelId: string, action: string): void {
  const loaded = engine.list().find((info) => info.id === modelId);
  if (loaded && (loaded.activeUsers > 0 || loaded.state === "loading")) {
    throw new PerchError(
      "conflict",
      `Cannot ${action} '${modelId}': it is in use. Try again when it is idle.`,
    );
  }
}

/** Unloads the model unless a request is using it (then 409): returns whether it was loaded. */
async function unloadIdle(engine: EngineView, modelId: string, action: string): Promise<boolean> {
  assertIdle(engine, modelId, action);
  if (!engine.list().some((info) => info.id === modelId)) return false;
  return engine.unload(modelId);
}
