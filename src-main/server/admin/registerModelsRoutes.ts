import type { FastifyInstance } from "fastify";
import { PerchError } from "../../base/PerchError.js";
import type { ModelCatalog } from "../../catalog/ModelCatalog.js";
import type { ModelSummaries } from "../../catalog/ModelSummaries.js";
import { modelFileOf } from "../../catalog/modelFileOf.js";
import { listModelRows } from "../../catalog/listModelRows.js";
import { reloadModels } from "../../catalog/reloadModels.js";
import { toModelRow } from "../../catalog/toModelRow.js";
import type { UpdateChecker } from "../../catalog/UpdateChecker.js";
import type { ModelProfilesStore } from "../../settings/ModelProfilesStore.js";
import type { ModelSettingsStore } from "../../settings/ModelSettingsStore.js";
import type { SettingsStore } from "../../settings/SettingsStore.js";
import type { EngineView } from "../../engine/EngineView.js";
import { isDeepStrictEqual } from "node:util";
import {
  modelSettingsAppliesAt,
  type ModelSettings,
  type SpeculativeSettings,
} from "../../../src-shared/contracts/settings.js";
import path from "node:path";
import { serveRoute } from "../serveRoute.js";
import { ollamaModelNames } from "../../catalog/ollamaModelNames.js";

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
      await deps.summaries.get(modelId, modelFileOf(entry)),
      loaded,
    );
  };

  serveRoute(app, "listModels", () => listModelRows(deps));

  // Reading, loading and unloading take any name a client may call the model by (an alias,
  // Ollama's `<id>:latest` and `hf.co/owner/repo:QUANT`), so `perch run/load/unload <name>` match the inference routes.
  /** The id a name means: `canonicalId`'s (an id, `<id>:latest`, an Ollama name, an alias). */
  const idOf = (name: string) => deps.catalog.canonicalId(name);

  serveRoute(app, "getModel", async ({ params }) => row(await idOf(params.model_id)));

  serveRoute(app, "putModelSettings", async ({ params, body }) => {
    const modelId = params.model_id;
    await deps.catalog.get(modelId);
    await assertAliasFree(deps, modelId, body.alias);
    const speculative = body.speculative && (await checkDraftModel(deps, body.speculative));
    const settings = await deps.modelSettings.set(modelId, {
      ...body,
      ...(speculative ? { speculative } : {}),
    });
    // Pinning, TTL, sampling and queue length apply at once; the rest on the next load
    // (`modelSettingsAppliesAt`; see POST /admin/api/reload).
    deps.engine.applySettings(modelId, settings);
    return { model_id: modelId, settings };
  });

  serveRoute(app, "deleteModel", async ({ params }) => {
    const modelId = params.model_id;
    await deps.catalog.get(modelId);
    await unloadIdle(deps.engine, modelId, "delete");
    const files = await deps.catalog.deleteModel(modelId);
    return { deleted: true as const, model_id: modelId, files };
  });

  serveRoute(
    app,
    "loadModel",
    async ({ params, body }) => {
      const modelId = await idOf(params.model_id);
      await deps.catalog.get(modelId);
      const current = await deps.modelSettings.get(modelId);
      const next = { ...current, ...body };
      // A loaded model runs with the load-time fields (context, concurrency, ...) it was loaded
      // with, which may differ from the saved ones (a settings change waits for the next load):
      // `load` brings it up with the settings asked for and saved, reloading it when idle.
      const running = deps.engine.settingsInEffect(modelId);
      const differs = (field: string) =>
        !isDeepStrictEqual(running?.[field as keyof ModelSettings], next[field as keyof ModelSettings]);
      const loadFields = Object.entries(modelSettingsAppliesAt)
        .filter(([, appliesAt]) => appliesAt === "next_load")
        .map(([field]) => field);
      const stale = running !== undefined && loadFields.some(differs);
      // Asked for now (`--ctx N`): refused while busy, before anything is saved, so a 409 leaves
      // the model's settings as they were. Only pending from before: a busy model keeps running.
      const asked = stale && loadFields.some((field) => field in body && differs(field));
      if (asked) assertIdle(deps.engine, modelId, "resize");
      let settings = current;
      if (
        Object.entries(body).some(
          ([key, value]) => !isDeepStrictEqual(current[key as keyof typeof body], value),
        )
      ) {
        settings = await deps.modelSettings.set(modelId, next);
        deps.engine.applySettings(modelId, settings);
      }
      if (stale && isIdle(deps.engine, modelId)) await unloadIdle(deps.engine, modelId, "resize");
      await deps.engine.load(modelId);
      return { model_id: modelId, loaded: true as const, settings };
    },
    { emptyBody: {} },
  );

  serveRoute(app, "unloadModel", async ({ params }) => {
    const modelId = await idOf(params.model_id);
    await deps.catalog.get(modelId);
    return { model_id: modelId, unloaded: await unloadIdle(deps.engine, modelId, "unload") };
  });

  serveRoute(app, "checkModelUpdates", async () => ({ results: await deps.updates.checkAll() }));
  serveRoute(app, "checkModelUpdate", ({ params }) => deps.updates.check(params.model_id));

  serveRoute(app, "rescan", () => deps.catalog.rescan());
  serveRoute(app, "reload", () => reloadModels(deps));
}

/**
 * An alias is the name the model manager and chat show for a model, and a second name clients
 * may call it by (`ModelCatalog.canonicalId`): one that already names another model — its id,
 * `<id>:latest`, its Ollama name (`hf.co/owner/repo:QUANT`, or `hf.co/owner/repo` for the repo's
 * default model) or its alias — would make one name mean two models (the routes that read the
 * Ollama names first and those that read aliases first once disagreed, and `DELETE /api/delete`
 * removed the other file), so it is refused (400, `param: "alias"`).
 */
async function assertAliasFree(
  deps: ModelsRoutesDeps,
  modelId: string,
  alias: string | undefined,
): Promise<void> {
  if (alias === undefined) return;
  // Names compare as every API resolves them: any case, with or without Ollama's `:latest`.
  const key = (name: string) =>
    name
      .trim()
      .toLowerCase()
      .replace(/:latest$/, "");
  const wanted = key(alias);
  const entries = await deps.catalog.list();
  const names = ollamaModelNames(entries);
  const others = entries.filter((entry) => entry.id !== modelId);
  const named = [alias.trim(), wanted].map((name) => names.resolve(name)).find(Boolean);
  const sameId =
    (named && named.id !== modelId ? named.id : undefined) ??
    others.find((entry) => key(entry.id) === wanted || key(names.nameOf(entry)) === wanted)?.id;
  const aliases = Object.entries(await deps.modelSettings.all())
    .filter(([id, settings]) => id !== modelId && settings.alias !== undefined)
    .map(([id, settings]) => ({ id, alias: settings.alias! }));
  const sameAlias = aliases.find((entry) => key(entry.alias) === wanted);
  if (sameId || sameAlias) {
    throw new PerchError(
      "invalid_request",
      sameId
        ? `The alias '${alias}' already names another model ('${sameId}'); choose another name.`
        : `The alias '${alias}' is already the alias of '${sameAlias!.id}'; choose another name.`,
      { param: "alias" },
    );
  }
}

/**
 * Draft speculation names a draft model the catalog has (any name it answers to, stored as its id)
 * or a .gguf path: saved without one, it was accepted and then silently off at every load.
 */
export async function checkDraftModel(
  deps: Pick<ModelsRoutesDeps, "catalog">,
  speculative: SpeculativeSettings,
): Promise<SpeculativeSettings> {
  if (speculative.mode !== "draft") return speculative;
  const name = speculative.draftModel;
  const param = "speculative.draftModel";
  if (!name)
    throw new PerchError("invalid_request", "Draft speculation needs a draft model: pick one.", { param });
  if (path.isAbsolute(name)) return speculative;
  const id = await deps.catalog.canonicalId(name);
  const entry = await deps.catalog.get(id).catch(() => {
    throw new PerchError("invalid_request", `The draft model '${name}' is not a model Perch has.`, { param });
  });
  // A catalogued model whose file is gone cannot draft: speculation would be silently off.
  if (entry.missing) {
    throw new PerchError(
      "invalid_request",
      `The draft model '${name}' has no file on disk (${entry.path} is missing).`,
      { param },
    );
  }
  return { ...speculative, draftModel: id };
}

/**
 * Idle: no request or run uses the model. Models drafting with it may hold it: unloading a draft
 * model stops their speculation first (its attachment in `createDraftSpeculation`).
 */
function isIdle(engine: EngineView, modelId: string): boolean {
  const loaded = engine.list().find((info) => info.id === modelId);
  return !loaded || (loaded.activeUsers === 0 && loaded.state !== "loading");
}

/** Throws 409 `conflict` while a request uses the model (or it is loading). */
function assertIdle(engine: EngineView, modelId: string, action: string): void {
  if (!isIdle(engine, modelId)) {
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
