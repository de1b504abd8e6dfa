import crypto from "node:crypto";
import net from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { PerchError } from "../base/PerchError.js";
import { parseHostHeader } from "./parseHostHeader.js";

const loopback = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** Constant-time comparison of a presented key with the configured one. */
export function keyMatches(presented: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(presented).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === "string" && header.toLowerCase().startsWith("bearer ")) return header.slice(7).trim();
  const xApiKey = request.headers["x-api-key"];
  return typeof xApiKey === "string" ? xApiKey : undefined;
}

export function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (loopback.has(address) || address.startsWith("127."));
}

/**
 * Whether a `Host` header names this machine by a loopback name. A page on another site that
 * re-points its own DNS name at 127.0.0.1 (DNS rebinding) still sends its own name here.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true; // HTTP/1.0 without Host: no browser sends that
  const name = parseHostHeader(host)?.name;
  // An address literal only: `127.0.0.1.evil.example` is a DNS name its owner can point anywhere.
  return name !== undefined && (name === "localhost" || (net.isIP(name) !== 0 && isLoopback(name)));
}

/** Whether a browser's `Origin` is this very server (the dashboard it serves), by its `Host`. */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  const parsed = host === undefined ? undefined : parseHostHeader(host);
  if (parsed === undefined || origin === "null") return false;
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    const defaultPort = url.protocol === "https:" ? 443 : 80;
    return (
      url.hostname.replace(/^\[|\]$/g, "").toLowerCase() === parsed.name &&
      (url.port === "" ? defaultPort : Number(url.port)) === (parsed.port ?? defaultPort)
    );
  } catch {
    return false;
  }
}

/**
 * The paths a request is judged by: the pattern of the route it matched and its decoded path.
 * The router decodes percent-escapes, so `/%61dmin/api/settings` reaches `/admin/api/settings`:
 * judging the raw URL alone would let it past every check.
 */
function guardedPaths(request: FastifyRequest): string[] {
  const raw = request.url.split("?")[0] ?? "";
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Undecodable: the router answers it as a malformed URL.
  }
  const pattern = request.routeOptions.url;
  return pattern === undefined ? [raw, decoded] : [pattern, raw, decoded];
}

/** Ollama routes that change what is on disk: admin rules on top of the API key. */
const ollamaAdminPaths = new Set(["/api/pull", "/api/delete"]);

const stateChanging = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Which face a request reaches. `open`: the inference APIs (`/v1`, Ollama's `/api` but its pull
 * and delete), open to every origin; `admin`: `/admin` and Ollama's pull and delete, which
 * browser pages on other sites must never reach; `other`: the rest (dashboard files, `/health`).
 */
export function requestFace(request: FastifyRequest): "open" | "admin" | "other" {
  const paths = guardedPaths(request);
  const isAdmin = paths.some(
    (url) => url.startsWith("/admin/") || url === "/admin" || ollamaAdminPaths.has(url.replace(/\/+$/, "")),
  );
  if (isAdmin) return "admin";
  const isInference = paths.some(
    (url) => url.startsWith("/v1/") || url === "/v1" || url.startsWith("/api/") || url === "/api",
  );
  return isInference ? "open" : "other";
}

/** `application/json`, with or without parameters (`; charset=utf-8`). */
function isJsonContentType(value: string): boolean {
  return value.split(";")[0]?.trim().toLowerCase() === "application/json";
}

/**
 * What a browser page on another site could make the user's browser send to the admin API
 * (DNS rebinding, cross-site requests): refused before any route runs. Clients that are not
 * browsers (curl, SDKs, the Electron shell) send no `Origin` and a loopback `Host`.
 */
function checkAdminBrowserRequest(request: FastifyRequest, allowRemoteAdmin: boolean): void {
  const host = request.headers.host;
  // With remote admin allowed the server cannot know every name it is reached by; the API key
  // is then the defence (SECURITY.md).
  if (!allowRemoteAdmin && !isLoopbackHost(host)) {
    throw new PerchError(
      "forbidden",
      "Admin routes only answer requests addressed to localhost or a loopback address (Host header).",
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isSameOrigin(origin, host)) {
    throw new PerchError("forbidden", "Admin routes refuse cross-origin browser requests.");
  }
  // A cross-origin GET in `no-cors` mode, an <img> or a <script> sends no Origin, but a browser
  // says where it came from in Sec-Fetch-Site. Only the dashboard this server serves
  // (`same-origin`) and what the user typed or bookmarked (`none`) may use admin routes;
  // clients that are not browsers send no such header.
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    throw new PerchError(
      "forbidden",
      "Admin routes refuse requests a page on another site made (Sec-Fetch-Site).",
    );
  }
  // An HTML form can post urlencoded, multipart or text/plain without a preflight; JSON cannot.
  const contentType = request.headers["content-type"];
  if (stateChanging.has(request.method) && contentType !== undefined && !isJsonContentType(contentType)) {
    const ollama = guardedPaths(request).some((url) => ollamaAdminPaths.has(url.replace(/\/+$/, "")));
    throw new PerchError(
      "unsupported_media_type",
      ollama
        ? "Send this request with the header 'Content-Type: application/json' (curl: -H 'Content-Type: application/json'). " +
            "Pull and delete change the models on disk, so they take only JSON bodies: any other type is what a " +
            "form on another web page could send (cross-site request protection, SECURITY.md)."
        : "Admin requests with a body must be application/json.",
    );
  }
}

/**
 * API key on `/v1/*`, `/api/*` (Ollama) and `/admin/*`, loopback-only admin (and Ollama's pull and
 * delete) unless allowed, and CORS: `/v1/*` and `/api/*`
 * answers any origin (other local apps and web UIs call it), admin routes never send CORS
 * headers, so a browser page on another origin cannot read them; admin routes also refuse
 * requests addressed to a non-loopback host name (DNS rebinding), cross-origin requests and
 * state-changing requests whose body is not JSON (cross-site forms).
 */
export async function registerSecurity(
  app: FastifyInstance,
  options: { apiKey?: string; allowRemoteAdmin: boolean },
): Promise<void> {
  app.addHook("onRequest", async (request, reply) => {
    // Ollama's API (`/api/*`) is an inference face like `/v1`; its pull and delete change the
    // models on disk, so they get the admin rules (loopback, no cross-site browser requests).
    const face = requestFace(request);
    const isAdmin = face === "admin";
    const isInference = face !== "other";
    if (face === "open") {
      const origin = request.headers.origin;
      if (origin) {
        void reply.header("access-control-allow-origin", "*");
        // Whatever headers the page's client asks for: SDKs add their own (`x-stainless-*` of the
        // openai and Anthropic SDKs, `anthropic-dangerous-direct-browser-access`), and no
        // credentials are involved (any origin may call, an API key is the only guard).
        const asked = request.headers["access-control-request-headers"];
        void reply.header(
          "access-control-allow-headers",
          typeof asked === "string" && /^[\w\-, ]{1,2000}$/.test(asked)
            ? asked
            : "authorization, content-type, x-api-key, anthropic-version",
        );
        // DELETE: `DELETE /v1/responses/{id}` (Ollama's delete is an admin route, never CORS).
        void reply.header("access-control-allow-methods", "GET, POST, DELETE, OPTIONS");
        // Perch's own answer headers, readable by a page's script (the field policy and Ollama's codes).
        void reply.header("access-control-expose-headers", "x-perch-ignored-fields, x-perch-error-code");
      }
      if (request.method === "OPTIONS") return reply.status(204).send();
    }
    if (isAdmin && !options.allowRemoteAdmin && !isLoopback(request.socket.remoteAddress)) {
      throw new PerchError(
        "forbidden",
        "Admin routes only answer loopback clients (see allow_remote_admin).",
      );
    }
    if (isAdmin) checkAdminBrowserRequest(request, options.allowRemoteAdmin);
    if ((isInference || isAdmin) && options.apiKey) {
      const key = presentedKey(request);
      if (!key || !keyMatches(key, options.apiKey)) {
        throw new PerchError(
          "unauthorized",
          "Missing or invalid API key (Authorization: Bearer <key> or x-api-key).",
        );
      }
    }
  });
}
