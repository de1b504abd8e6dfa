import path from "node:path";
import {
  globalSettingsSchema,
  type GlobalSettings,
  type GlobalSettingsPatch,
  type GlobalSettingsResponse,
} from "../../src-shared/contracts/settings.js";
import { resolveModelsDirs } from "../base/resolveModelsDirs.js";
import type { HealthRegistry } from "../storage/HealthRegistry.js";
import { JsonFile } from "../storage/JsonFile.js";
import { resolveHubEndpoints, type HubEndpoints } from "./resolveHubEndpoints.js";
import { SettingsUnreadableError } from "./SettingsUnreadableError.js";

/** Settings the running server read once at start: changing them needs a restart. */
const restartFields = [
  "host",
  "port",
  "api_key",
  "allow_remote_admin",
  "default_ttl_seconds",
  "memory_budget_bytes",
  "threads",
] as const satisfies readonly (keyof GlobalSettings)[];

export interface SettingsStoreOptions {
  /** Folder holding `settings.json`. */
  basePath: string;
  /** Where a corrupt settings file is reported. Defaults to `undefined`. */
  health?: HealthRegistry;
  /** Environment for `HF_ENDPOINT` / `MODELSCOPE_ENDPOINT`. Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Model folders given on the command line (they win over the file). Defaults to none. */
  modelsDirsOverride?: string[];
}

/** `<base>/settings.json`: the global settings shared by the server, the CLI and the app. */
export class SettingsStore {
  readonly basePath: string;
  private readonly file: JsonFile<typeof globalSettingsSchema>;
  private readonly env: NodeJS.ProcessEnv;
  private startedWith: GlobalSettings | undefined;
  /** A key given on the command line or in the environment also makes requests need one. */
  private apiKeyInEffect = false;
  /** llama.cpp threads the server started with, and what an unset `threads` means here. */
  private threadsInEffect: number | null = null;
  private defaultThreads = 1;
  private running: { host: string; port: number } | undefined;
  private readonly modelsDirsOverride: string[] | undefined;
  private readonly listeners = new Set<(settings: GlobalSettings) => void>();

  constructor(options: SettingsStoreOptions) {
    this.basePath = path.resolve(options.basePath);
    this.env = options.env ?? process.env;
    this.modelsDirsOverride = options.modelsDirsOverride?.length ? options.modelsDirsOverride : undefined;
    this.file = new JsonFile({
      path: path.join(this.basePath, "settings.json"),
      schema: globalSettingsSchema,
      empty: () => globalSettingsSchema.parse({}),
      health: options.health,
      // The defaults have no API key: a corrupt file read as absent would open the server.
      onCorrupt: "refuse",
      describeRefusal: (filePath, reason) => new SettingsUnreadableError(filePath, reason),
    });
  }

  get(): Promise<GlobalSettings> {
    return this.file.read();
  }

  /**
   * Remembers where the server really listens (command-line flags win over settings.json), so
   * the settings page shows the running values, not stale defaults.
   */
  markListening(running: { host: string; port: number }): void {
    this.running = structuredClone(running);
  }

  /**
   * Remembers the settings the server started with, so the API can say which changes wait for
   * a restart, and whether the server requires a key (`apiKeyInEffect`, which counts a key from
   * the command line too). `createCore` calls it once with what it used.
   */
  markStarted(
    settings: GlobalSettings,
    options: { apiKeyInEffect?: boolean; threads?: number; defaultThreads?: number } = {},
  ): void {
    this.startedWith = structuredClone(settings);
    this.apiKeyInEffect = options.apiKeyInEffect ?? settings.api_key !== null;
    this.threadsInEffect = options.threads ?? null;
    if (options.defaultThreads !== undefined) this.defaultThreads = options.defaultThreads;
  }

  /** `python_path` too, which the HTTP patch cannot set (see globalSettingsPatchSchema). */
  async update(patch: GlobalSettingsPatch | Pick<GlobalSettings, "python_path">): Promise<GlobalSettings> {
    const next = await this.file.update((draft) => ({ ...draft, ...patch }));
    for (const listener of this.listeners) listener(next);
    return next;
  }

  /** Re-reads the file (the admin "reload" after someone edited it by hand). */
  async reload(): Promise<GlobalSettings> {
    const next = await this.file.reload();
    for (const listener of this.listeners) listener(next);
    return next;
  }

  onChange(listener: (settings: GlobalSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The folders the server scans: `--models-dir` from the command line wins over `models_dirs`
   * in the file, and an empty list means `<base>/models`.
   */
  async modelsDirs(): Promise<string[]> {
    return this.effectiveModelsDirs(await this.get());
  }

  private effectiveModelsDirs(settings: GlobalSettings): string[] {
    return resolveModelsDirs(this.basePath, this.modelsDirsOverride ?? settings.models_dirs);
  }

  async hubEndpoints(): Promise<HubEndpoints> {
    return resolveHubEndpoints(await this.get(), this.env);
  }

  /** The `GET /admin/api/settings` answer: never echoes the API key or the Hub token. */
  async toResponse(): Promise<GlobalSettingsResponse> {
    const settings = await this.get();
    const { api_key, hf_token, ...rest } = settings;
    const endpoints = resolveHubEndpoints(settings, this.env);
    const started = this.startedWith;
    return {
      // Whether requests need a key: one stored, or one the server started with (`--api-key`,
      // `$PERCH_API_KEY`). The key itself never travels back.
      settings: {
        ...rest,
        api_key_set: api_key !== null || this.apiKeyInEffect,
        hf_token_set: hf_token !== null,
      },
      effective: {
        host: this.running?.host ?? null,
        port: this.running?.port ?? null,
        models_dirs: this.effectiveModelsDirs(settings),
        hf_endpoint: endpoints.hf,
        modelscope_endpoint: endpoints.modelscope,
        hf_token_source: endpoints.hfTokenSource,
        threads: this.threadsInEffect,
        default_threads: this.defaultThreads,
      },
      restart_required: started ? restartFields.filter((field) => started[field] !== settings[field]) : [],
    };
  }
}
