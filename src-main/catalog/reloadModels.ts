import type { ReloadResponse } from "../../src-shared/contracts/models.js";
import type { EngineView } from "../engine/EngineView.js";
import type { ModelProfilesStore } from "../settings/ModelProfilesStore.js";
import type { ModelSettingsStore } from "../settings/ModelSettingsStore.js";
import type { SettingsStore } from "../settings/SettingsStore.js";
import type { ModelCatalog } from "./ModelCatalog.js";

export interface ReloadDeps {
  settings: SettingsStore;
  modelSettings: ModelSettingsStore;
  profiles: ModelProfilesStore;
  catalog: ModelCatalog;
  engine: EngineView;
}

/**
 * The admin "reload": re-reads every settings file, rescans the (possibly changed) models dirs,
 * then unloads the idle loaded models whose settings changed or whose file is gone, so their
 * next request loads them fresh. A busy model is never unloaded: it keeps its old settings.
 */
export async function reloadModels(deps: ReloadDeps): Promise<ReloadResponse> {
  await deps.settings.reload();
  const changed = new Set(await deps.modelSettings.reload());
  await deps.profiles.reload();
  const scan = await deps.catalog.reload();
  const gone = new Set(scan.missing);
  const unloaded: string[] = [];
  const keptBusy: string[] = [];
  for (const loaded of deps.engine.list()) {
    if (!changed.has(loaded.id) && !gone.has(loaded.id)) continue;
    if (loaded.activeUsers > 0 || loaded.state !== "loaded") {
      keptBusy.push(loaded.id);
      continue;
    }
    await deps.engine.unload(loaded.id);
    unloaded.push(loaded.id);
  }
  return { ...scan, unloaded, kept_busy: keptBusy };
}
