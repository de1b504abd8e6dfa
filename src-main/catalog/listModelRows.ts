import type { ModelListResponse } from "../../src-shared/contracts/models.js";
import type { LoadedModelInfo } from "../engine/EnginePool.js";
import type { ModelSettingsStore } from "../settings/ModelSettingsStore.js";
import type { SettingsStore } from "../settings/SettingsStore.js";
import { ownEntry } from "../storage/ownEntry.js";
import type { ModelCatalog } from "./ModelCatalog.js";
import { modelFileOf } from "./modelFileOf.js";
import type { ModelSummaries } from "./ModelSummaries.js";
import { toModelRow } from "./toModelRow.js";

export interface ModelRowSources {
  catalog: Pick<ModelCatalog, "list">;
  modelSettings: Pick<ModelSettingsStore, "all">;
  summaries: Pick<ModelSummaries, "get">;
  settings: Pick<SettingsStore, "modelsDirs">;
  engine: { list(): LoadedModelInfo[] };
}

/** `GET /admin/api/models` and `perch models list`: every catalog entry with settings, summaries and engine state. */
export async function listModelRows(sources: ModelRowSources): Promise<ModelListResponse> {
  const [entries, settings] = await Promise.all([sources.catalog.list(), sources.modelSettings.all()]);
  const loaded = new Map(sources.engine.list().map((info) => [info.id, info]));
  const models = await Promise.all(
    entries.map(async (entry) =>
      toModelRow(
        entry,
        ownEntry(settings, entry.id) ?? {},
        await sources.summaries.get(entry.id, modelFileOf(entry)),
        loaded.get(entry.id),
      ),
    ),
  );
  return { models, models_dirs: await sources.settings.modelsDirs() };
}
