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
  /** CPU threads for llama.cpp. Defaults to `defaultThreads()`. */
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
 * CPU count less two (at most 8), elsewhere every CPU the process may use (at most 8). Measured on
 * a 2-core machine with libuv's pool at 2 (README: "Notes on CPUs"): 2 threads decode 1.5–1.8x
 * faster than 1, from one client to eight.
 */
export function defaultThreads(): number {
  const isAppleSilicon = process.platform === "darwin" && process.arch === "arm64";
  const cpus = os.availableParallelism();
  return Math.max(1, Math.min(8, isAppleSilicon ? cpus - 2 : cpus));
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
