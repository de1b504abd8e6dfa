import type { GlobalSettings } from "../../src-shared/contracts/settings.js";
import type { PerchConfig } from "../settings/PerchConfig.js";

/**
 * The part of `PerchConfig` that comes from `settings.json`; command-line flags are spread over
 * it by the caller: `resolveConfig({ ...settingsToConfig(settings), ...flags })`.
 */
export function settingsToConfig(settings: GlobalSettings): Partial<PerchConfig> {
  return {
    host: settings.host,
    port: settings.port,
    modelsDirs: settings.models_dirs,
    apiKey: settings.api_key ?? undefined,
    allowRemoteAdmin: settings.allow_remote_admin,
    ...(settings.threads !== null ? { threads: settings.threads } : {}),
  };
}
