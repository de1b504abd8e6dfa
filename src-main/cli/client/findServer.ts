import path from "node:path";
import { defaultBasePath } from "../../settings/PerchConfig.js";
import { readInstanceId } from "../../settings/instanceId.js";
import { SettingsStore } from "../../settings/SettingsStore.js";
import { AdminClient } from "./AdminClient.js";

export interface ServerLocation {
  /** Base URL, e.g. `http://127.0.0.1:11435`. */
  url: string;
  apiKey?: string;
  /** Where the address came from: `PERCH_HOST` is trusted as it is; settings are checked. */
  from?: "env" | "settings";
  /** The base path whose server this is (its `instance_id` identifies the server). */
  basePath?: string;
}

/**
 * Where a running `perch serve` would answer: `PERCH_HOST` (`host:port` or a URL) wins, then the
 * base path's settings.json, then the defaults. The key is `PERCH_API_KEY`, else the settings'.
 */
export async function locateServer(
  basePath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerLocation> {
  const base = basePath ? path.resolve(basePath) : defaultBasePath(env);
  // A corrupt settings file is the server's business to refuse; here the defaults do.
  const settings = await new SettingsStore({ basePath: base, env }).get().catch(() => null);
  const apiKey = env.PERCH_API_KEY || settings?.api_key || undefined;
  if (env.PERCH_HOST && env.PERCH_HOST.trim()) {
    return { url: hostToUrl(env.PERCH_HOST.trim()), apiKey, from: "env", basePath: base };
  }
  const host = settings?.host ?? "127.0.0.1";
  // A server bound to every interface is reached on loopback.
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return {
    url: hostToUrl(`${bracket(reachable)}:${settings?.port ?? 11435}`),
    apiKey,
    from: "settings",
    basePath: base,
  };
}

/**
 * The running server's admin client, or null when nothing answers `GET /health` quickly: the
 * commands then work on the files of the base path directly. A server found through the settings
 * must show this base path's instance id (`<base>/instance_id`) on `/health` before the API key is
 * sent to it: another base's server, or any other process on the port, is not it and gets nothing.
 */
export async function findServer(
  basePath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AdminClient | null> {
  const location = await locateServer(basePath, env);
  let instance: unknown;
  try {
    const response = await fetch(`${location.url}/health`, { signal: AbortSignal.timeout(1500) });
    if (!response.ok) return null;
    const body = (await response.json()) as { status?: unknown; instance?: unknown };
    if (body.status !== "ok") return null;
    instance = body.instance;
  } catch {
    return null;
  }
  if (location.from === "env") return new AdminClient(location);
  const own = location.basePath ? readInstanceId(location.basePath) : null;
  return own !== null && instance === own ? new AdminClient(location) : null;
}

function hostToUrl(value: string): string {
  const withScheme = /^https?:\/\//i.test(value) ? value : `http://${value}`;
  const url = new URL(withScheme);
  if (!url.port && !/^https?:\/\/[^/]*:\d+/i.test(withScheme)) url.port = "11435";
  return url.origin;
}

function bracket(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
