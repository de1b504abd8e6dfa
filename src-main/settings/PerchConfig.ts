import os from "node:os";
import path from "node:path";

/** Everything `createCore` needs to know; the CLI and the Electron shell both build one. */
export interface PerchConfig {
  /** Base folder for every file Perch writes. Defaults to `$PERCH_HOME` or `~/.perch`. */
  basePath: string;
  /** Folders scanned for models. An empty list means `<basePath>/models`. */
  modelsDirs: string[];
  /** Address the HTTP server binds. Defaults to `127.0.0.1`. */
  host: string;
  /** Port of the HTTP server. Defaults to `11435`; 0 picks a free one. */
  port: number;
  /** When set, `/v1/*` and `/admin/*` require it. Defaults to unset. */
  apiKey?: string;
  /** Let non-loopback clients reach `/admin/*`. Defaults to `false`. */
  allowRemoteAdmin: boolean;
  /** CPU threads for llama.cpp. Defaults to `1` off Apple Silicon (see README: thread pools). */
  threads: number;
  /** Use the GPU (Metal on a Mac) when the platform has one. Defaults to `"auto"`. */
  gpu: "auto" | false;
  /** Folder holding the built renderer served as the web dashboard. Defaults to `dist/renderer`. */
  rendererDir?: string;
  /** Log level for the pino logger. Defaults to `"info"`. */
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
}

export function defaultBasePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PERCH_HOME && env.PERCH_HOME.length > 0
    ? path.resolve(env.PERCH_HOME)
    : path.join(os.homedir(), ".perch");
}

/**
 * llama.cpp threads when neither the command line nor the settings set them: on Apple Silicon the
 * CPU count less two (at most 8), elsewhere 1 (see README: thread pools).
 */
export function defaultThreads(): number {
  const isAppleSilicon = process.platform === "darwin" && process.arch === "arm64";
  return isAppleSilicon ? Math.max(1, Math.min(8, os.availableParallelism() - 2)) : 1;
}

export function resolveConfig(
  partial: Partial<PerchConfig> = {},
  env: NodeJS.ProcessEnv = process.env,
): PerchConfig {
  const isAppleSilicon = process.platform === "darwin" && process.arch === "arm64";
  return {
    basePath: partial.basePath ? path.resolve(partial.basePath) : defaultBasePath(env),
    modelsDirs: partial.modelsDirs ?? [],
    host: partial.host ?? "127.0.0.1",
    port: partial.port ?? 11435,
    apiKey: partial.apiKey,
    allowRemoteAdmin: partial.allowRemoteAdmin ?? false,
    threads: partial.threads ?? defaultThreads(),
    gpu: partial.gpu ?? (isAppleSilicon ? "auto" : false),
    rendererDir: partial.rendererDir,
    logLevel: partial.logLevel ?? "info",
  };
}
