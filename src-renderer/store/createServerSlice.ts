import type { HealthResponse } from "../../src-shared/contracts/catalog.js";
import type { ServerStats } from "../../src-shared/contracts/stats.js";
import type { AppPreferences, AppPreferencesPatch } from "../../src-shared/contracts/appPreferences.js";
import type { GlobalSettingsPatch, GlobalSettingsResponse } from "../../src-shared/contracts/settings.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import { readThroughput } from "./readThroughput.js";
import type { SliceCreator } from "./PerchState.js";

export interface ThroughputSample {
  at: number;
  /** Generated tokens per second across all requests, now (0 while nothing runs). */
  tokensPerSecond: number;
  /** The server's one-minute average. */
  minuteAverage: number;
  active: number;
  queued: number;
}

export interface ServerSlice {
  stats: ServerStats | null;
  statsError: ErrorInfo | null;
  health: HealthResponse | null;
  globalSettings: GlobalSettingsResponse | null;
  settingsError: ErrorInfo | null;
  /** The last few minutes of polled stats, for the throughput chart. */
  throughput: ThroughputSample[];
  /** The desktop app's preferences; null in a browser (there is no app to configure). */
  appPreferences: AppPreferences | null;
  loadServer(): Promise<void>;
  pollStats(): Promise<void>;
  saveGlobalSettings(patch: GlobalSettingsPatch): Promise<ErrorInfo | null>;
  saveAppPreferences(patch: AppPreferencesPatch): Promise<ErrorInfo | null>;
}

const maxSamples = 120;

export const createServerSlice: SliceCreator<ServerSlice> = (set, get, { client, now }) => ({
  stats: null,
  statsError: null,
  health: null,
  globalSettings: null,
  settingsError: null,
  throughput: [],
  appPreferences: null,

  async loadServer() {
    const [health, settings, preferences] = await Promise.allSettled([
      client.request("health"),
      client.request("getSettings"),
      client.preferences ? client.preferences.get() : Promise.resolve(null),
      get().pollStats(),
    ]);
    set({
      appPreferences: preferences.status === "fulfilled" ? preferences.value : get().appPreferences,
      health: health.status === "fulfilled" ? health.value : get().health,
      globalSettings: settings.status === "fulfilled" ? settings.value : get().globalSettings,
      settingsError: settings.status === "rejected" ? toErrorInfo(settings.reason) : null,
    });
  },

  async pollStats() {
    try {
      const stats = await client.request("stats");
      const sample = { at: now(), ...readThroughput(stats) };
      set({ stats, statsError: null, throughput: [...get().throughput, sample].slice(-maxSamples) });
      void get().chatReconnected();
    } catch (error) {
      set({ statsError: toErrorInfo(error) });
    }
  },

  async saveGlobalSettings(patch) {
    try {
      const globalSettings = await client.request("putSettings", { body: patch });
      set({ globalSettings, settingsError: null });
      get().notify({ kind: "success", key: "settings.saved" });
      return null;
    } catch (error) {
      return toErrorInfo(error);
    }
  },

  async saveAppPreferences(patch) {
    if (!client.preferences) return null;
    try {
      const appPreferences = await client.preferences.set(patch);
      set({ appPreferences });
      get().notify({ kind: "success", key: "settings.saved" });
      return null;
    } catch (error) {
      return toErrorInfo(error);
    }
  },
});
