import path from "node:path";
import { PerchError } from "../../base/PerchError.js";
import { defaultBasePath } from "../../settings/PerchConfig.js";
import { readInstanceId } from "../../settings/instanceId.js";
import { readServerAddress } from "../../settings/serverAddress.js";
import { SettingsStore } from "../../settings/SettingsStore.js";
import { SettingsUnreadableError } from "../../settings/SettingsUnreadableError.js";
import type { GlobalOptionValues } from "../globalOptions.js";
import { AdminClient } from "./AdminClient.js";

export interface ServerLocation {
  /** Base URL, e.g. `http://127.0.0.1:11435`. */
  url: string;
  apiKey?: string;
  /**
   * Where the address came from: `PERCH_HOST` is trusted as it is (unless a base path was named);
   * the running server's record (`<base>/server.json`) and the settings are checked.
   */
  from?: "env" | "record" | "settings";
  /** The base path whose server this is (its `instance_id` identifies the server). */
  basePath?: string;
}

/**
 * Where a running `perch serve` would answer: `PERCH_HOST` (`host:port` or a URL) wins, then the
 * address the base path's running server recorded (`server.json`: `serve --port N`, the app), then
 * the base path's settings.json, then the defaults. The key is `PERCH_API_KEY`, else the settings'.
 */
export async function locateServer(
  basePath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerLocation> {
  const base = basePath ? path.resolve(basePath) : defaultBasePath(env);
  // A corrupt settings file is the server's business to refuse; here the defaults do.
  // No settings file is fine (defaults); one that cannot be read is refused like everywhere
  // else (exit 78): its port and key are unknown, so guessing would talk to the wrong server.
  const settings = await new SettingsStore({ basePath: base, env }).get().catch((error: unknown) => {
    if (error instanceof SettingsUnreadableError) throw error;
    return null;
  });
  const apiKey = env.PERCH_API_KEY || settings?.api_key || undefined;
  if (env.PERCH_HOST && env.PERCH_HOST.trim()) {
    return { url: hostToUrl(env.PERCH_HOST.trim(), "PERCH_HOST"), apiKey, from: "env", basePath: base };
  }
  const running = readServerAddress(base);
  if (running) {
    const url = new URL(running.url);
    url.hostname = loopbackFor(url.hostname);
    return { url: url.origin, apiKey, from: "record", basePath: base };
  }
  const host = settings?.host ?? "127.0.0.1";
  return {
    url: hostToUrl(`${bracket(loopbackFor(host))}:${settings?.port ?? 11435}`),
    apiKey,
    from: "settings",
    basePath: base,
  };
}

/** What `lookUpServer` found where the base path's server would answer. */
export interface ServerLookup {
  /** The server to use, or null: none answers there, or it is not this base's, or not these folders'. */
  server: AdminClient | null;
  /** Where it was looked for. */
  url: string;
  /**
   * Set when this base's server runs but serves other folders than `--models-dir` named: it is
   * not used, and a command that needs a server must say so (not "no server is running").
   */
  otherFolders?: { served: string[]; asked: string[] };
}

/**
 * The running server's admin client, or null when nothing answers `GET /health` quickly: the
 * commands then work on the files of the base path directly. A server found through its record or
 * the settings, or through `PERCH_HOST` with `--base-path` given, must show this base path's
 * instance id (`<base>/instance_id`) on `/health` before the API key is sent to it: another base's
 * server, or any other process on the port, is not it and gets nothing. With `--models-dir`, the
 * server is used only when it serves those folders; otherwise the command works on them directly.
 */
export async function findServer(
  options: GlobalOptionValues = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<AdminClient | null> {
  return (await lookUpServer(options, env)).server;
}

/** `findServer`, telling also where it looked and why a server of this base was not taken. */
export async function lookUpServer(
  options: GlobalOptionValues = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerLookup> {
  const location = await locateServer(options.basePath, env);
  const none: ServerLookup = { server: null, url: location.url };
  let instance: unknown;
  try {
    const response = await fetch(`${location.url}/health`, { signal: AbortSignal.timeout(1500) });
    if (!response.ok) return none;
    const body = (await response.json()) as { status?: unknown; instance?: unknown };
    if (body.status !== "ok") return none;
    instance = body.instance;
  } catch {
    return none;
  }
  const trusted = location.from === "env" && options.basePath === undefined;
  if (!trusted) {
    const own = location.basePath ? readInstanceId(location.basePath) : null;
    if (own === null || instance !== own) return none;
  }
  const client = new AdminClient(location);
  if (options.modelsDir && options.modelsDir.length > 0) {
    const served = (await client.request("listModels")).models_dirs.map((dir) => path.resolve(dir));
    const asked = options.modelsDir.map((dir) => path.resolve(dir));
    if (!asked.every((dir) => served.includes(dir))) return { ...none, otherFolders: { served, asked } };
  }
  return { server: client, url: location.url };
}

/** "The server at URL serves A, not B": why a running server of this base is not used. */
export function describeOtherFolders(
  url: string,
  folders: NonNullable<ServerLookup["otherFolders"]>,
): string {
  return `The server at ${url} serves ${folders.served.join(", ")}, not ${folders.asked.join(", ")}`;
}

/** A server bound to every interface is reached on loopback. */
function loopbackFor(host: string): string {
  return host === "0.0.0.0" ? "127.0.0.1" : host === "::" || host === "[::]" ? "[::1]" : host;
}

function hostToUrl(value: string, source?: string): string {
  const withScheme = /^https?:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new PerchError(
      "invalid_request",
      `${source ?? "The server address"} is not a host[:port] or URL: '${value}'.`,
    );
  }
  if (!url.port && !/^https?:\/\/[^/]*:\d+/i.test(withScheme)) url.port = "11435";
  return url.origin;
}

function bracket(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
