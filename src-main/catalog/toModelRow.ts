import type { CatalogEntry } from "../../src-shared/contracts/catalog.js";
import type { ModelLoadState, ModelRow } from "../../src-shared/contracts/models.js";
import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import type { LoadedModelInfo } from "../engine/EnginePool.js";
import { suggestTags } from "../settings/suggestTags.js";
import type { ModelSummary } from "./ModelSummaries.js";

/** One row of `GET /admin/api/models`: the catalog entry with settings, summaries and engine state. */
export function toModelRow(
  entry: CatalogEntry,
  settings: ModelSettings,
  summary: ModelSummary,
  loaded: LoadedModelInfo | undefined,
): ModelRow {
  const tags = settings.tags ?? [];
  return {
    ...entry,
    settings,
    tags,
    suggested_tags: suggestTags(entry.gguf, tags),
    accuracy: summary.accuracy,
    performance: summary.performance,
    load: toLoadState(loaded, settings),
  };
}

function toLoadState(loaded: LoadedModelInfo | undefined, settings: ModelSettings): ModelLoadState {
  if (!loaded) {
    return {
      state: "unloaded",
      pinned: settings.pinned ?? false,
      active_users: 0,
      ttl_seconds: settings.ttl_seconds ?? null,
      loaded_at: null,
      last_used_at: null,
    };
  }
  return {
    state: loaded.state,
    pinned: loaded.pinned,
    active_users: loaded.activeUsers,
    ttl_seconds: loaded.ttlSeconds,
    loaded_at: loaded.loadedAt ?? null,
    last_used_at: loaded.lastUsedAt,
  };
}
