import crypto from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { PerchError } from "../core/PerchError.js";

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
 * API key on `/v1/*` and `/admin/*`, loopback-only admin unless allowed, and CORS: `/v1/*`
 * answers any origin (other local apps and web UIs call it), admin routes never send CORS
 * headers, so a browser page on another origin cannot read them.
 */
export async function registerSecurity(
  app: FastifyInstance,
  options: { apiKey?: string; allowRemoteAdmin: boolean },
): Promise<void> {
  app.addHook("onRequest", async (request, reply) => {
    const url = request.url;
    const isV1 = url.startsWith("/v1/") || url === "/v1";
    const isAdmin = url.startsWith("/admin/") || url === "/admin";
    if (isV1) {
      const origin = request.headers.origin;
      if (origin) {
        void reply.header("access-control-allow-origin", "*");
        void reply.header(
          "access-control-allow-headers",
          "authorization, content-type, x-api-key, anthropic-version",
        );
        void reply.header("access-control-allow-methods", "GET, POST, OPTIONS");
      }
      if (request.method === "OPTIONS") return reply.status(204).send();
    }
    if (isAdmin && !options.allowRemoteAdmin && !isLoopback(request.socket.remoteAddress)) {
      throw new PerchError(
        "forbidden",
        "Admin routes only answer loopback clients (see allow_remote_admin).",
      );
    }
    if ((isV1 || isAdmin) && options.apiKey) {
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
