import type { ModelSettings } from "../../../src-shared/contracts/settings.js";

/**
 * Model settings marked experimental: results measured with them are not comparable with stock
 * llama.cpp numbers, so they are kept locally but never uploaded. Add a check here when a
 * setting is marked experimental in the settings contract.
 */
export const experimentalSettingChecks: Record<string, (settings: ModelSettings) => string | undefined> = {
  speculative: (settings) => {
    const mode = settings.speculative?.mode ?? "off";
    return mode === "off" ? undefined : `speculative decoding (${mode})`;
  },
  kv_cache_type: (settings) =>
    settings.kv_cache_type === undefined || settings.kv_cache_type === "f16"
      ? undefined
      : `KV cache type ${settings.kv_cache_type}`,
};

/** Human-readable names of the experimental features active for a model (empty when none). */
export function findExperimentalFeatures(settings: ModelSettings, extra: readonly string[] = []): string[] {
  const found = Object.values(experimentalSettingChecks)
    .map((check) => check(settings))
    .filter((feature): feature is string => feature !== undefined);
  return [...found, ...extra];
}
