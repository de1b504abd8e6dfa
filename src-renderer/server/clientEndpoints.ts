import type { GlobalSettingsResponse } from "../../src-shared/contracts/settings.js";

export type ClientApi = "openai" | "anthropic" | "ollama";

export interface ClientEndpoint {
  api: ClientApi;
  /** What a client of that API is given as its base URL. */
  url: string;
}

/** Addresses a server binds to but a client cannot connect to: any-address binds. */
const wildcardHosts = new Set(["0.0.0.0", "::", "[::]", ""]);

/**
 * The origin other apps on this computer reach the server at. A page served by the server itself
 * was reached at its own address, which is the one that answers; in the app (a file:// page over
 * IPC) it is where the server listens now (the effective host and port, which command-line flags
 * may have set), else the saved settings. A wildcard bind is reached through the loopback address.
 */
export function serverOrigin(
  location: Pick<Location, "protocol" | "hostname" | "port">,
  settings: GlobalSettingsResponse | null,
): { host: string; port: number; origin: string } {
  const served = location.protocol.startsWith("http");
  const configuredHost = settings?.effective.host ?? settings?.settings.host ?? "127.0.0.1";
  const host = served ? location.hostname : wildcardHosts.has(configuredHost) ? "127.0.0.1" : configuredHost;
  const port = served
    ? Number(location.port || (location.protocol === "https:" ? 443 : 80))
    : (settings?.effective.port ?? settings?.settings.port ?? 11435);
  const bare = host.replace(/^\[|\]$/g, "");
  const scheme = served && location.protocol === "https:" ? "https" : "http";
  return { host: bare, port, origin: `${scheme}://${bare.includes(":") ? `[${bare}]` : bare}:${port}` };
}

/**
 * The base URL each kind of client wants: OpenAI SDKs take the `/v1` prefix in their base URL;
 * the Anthropic SDK and Ollama clients add their own paths (`/v1/messages`, `/api/chat`).
 */
export function clientEndpoints(origin: string): ClientEndpoint[] {
  return [
    { api: "openai", url: `${origin}/v1` },
    { api: "anthropic", url: origin },
    { api: "ollama", url: origin },
  ];
}
