import {
  appPreferencesPatchSchema,
  appPreferencesSchema,
  type AppPreferences,
} from "../../src-shared/contracts/appPreferences.js";
import { createLogger } from "../base/createLogger.js";

const log = createLogger("app:preferences");

/** Where preferences live: `electron-store` in the app (`store` is its whole-object accessor). */
export interface PreferencesBackend {
  store: Record<string, unknown>;
}

/**
 * The app's preferences, parsed with the schema shared with the headless settings on every read
 * (a hand-edited or older file still loads: unknown keys dropped, missing ones defaulted).
 */
export class AppPreferencesStore {
  private readonly listeners = new Set<(preferences: AppPreferences, previous: AppPreferences) => void>();

  constructor(private readonly backend: PreferencesBackend) {}

  get(): AppPreferences {
    const parsed = appPreferencesSchema.safeParse(this.backend.store);
    if (parsed.success) return parsed.data;
    log.warn({ issues: parsed.error.issues.slice(0, 3) }, "preferences file invalid; using defaults");
    return appPreferencesSchema.parse({});
  }

  /** Validates and applies a patch; throws on invalid input (the IPC handler validates first). */
  set(patch: unknown): AppPreferences {
    const previous = this.get();
    const next = appPreferencesSchema.parse({ ...previous, ...appPreferencesPatchSchema.parse(patch) });
    this.backend.store = next;
    for (const listener of this.listeners) listener(next, previous);
    return next;
  }

  onChange(listener: (preferences: AppPreferences, previous: AppPreferences) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
