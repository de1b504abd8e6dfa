import { globalSettingsSchema, type GlobalSettingsPatch } from "../../src-shared/contracts/settings.js";
import type { PreferencesBackend } from "./AppPreferencesStore.js";

/**
 * Earlier versions kept `port` and `models_dirs` in the app's preferences, where they overrode
 * settings.json. settings.json is now their only owner: a value found in the preferences moves
 * there once (it was the one in effect) and leaves the preferences. Invalid leftovers are dropped.
 */
export async function moveServerPreferences(
  backend: PreferencesBackend,
  settings: { update(patch: GlobalSettingsPatch): Promise<unknown> },
): Promise<GlobalSettingsPatch> {
  const { port, models_dirs: modelsDirs, ...rest } = backend.store;
  if (port === undefined && modelsDirs === undefined) return {};
  const patch: GlobalSettingsPatch = {};
  const parsedPort = globalSettingsSchema.shape.port.unwrap().safeParse(port);
  if (parsedPort.success) patch.port = parsedPort.data;
  const parsedDirs = globalSettingsSchema.shape.models_dirs.unwrap().safeParse(modelsDirs);
  if (parsedDirs.success && parsedDirs.data.length > 0) patch.models_dirs = parsedDirs.data;
  if (Object.keys(patch).length > 0) await settings.update(patch);
  backend.store = rest;
  return patch;
}
