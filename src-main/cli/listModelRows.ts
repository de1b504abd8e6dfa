import type { ModelListResponse } from "../../src-shared/contracts/models.js";
import { toModelRow } from "../catalog/toModelRow.js";
import type { Core } from "../core/createCore.js";
import { ownEntry } from "../storage/ownEntry.js";

/** The rows `GET /admin/api/models` answers, read from the core when no server runs. */
export async function listModelRows(core: Core): Promise<ModelListResponse> {
  const { catalog, modelSettings, summaries, settings } = core.catalog;
  const [entries, stored] = await Promise.all([catalog.list(), modelSettings.all()]);
  const loaded = new Map(core.engine.list().map((info) => [info.id, info]));
  const models = await Promise.all(
    entries.map(async (entry) =>
      toModelRow(
        entry,
        ownEntry(stored, entry.id) ?? {},
        await summaries.get(entry.id),
        loaded.get(entry.id),
      ),
    ),
  );
  return { models, models_dirs: core.modelsDirs.length > 0 ? core.modelsDirs : await settings.modelsDirs() };
}
