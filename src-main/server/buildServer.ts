import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Core } from "../core/createCore.js";
import { packageRoot } from "../base/packageRoot.js";
import { createServer, type ServerOptions } from "./createServer.js";
import { registerRoutes } from "./registerRoutes.js";

/** The built dashboard beside Perch's package.json, from the sources and from the dist/main build alike. */
const builtRenderer = path.join(packageRoot()?.dir ?? process.cwd(), "dist/renderer");

export interface BuildServerOptions {
  /** Built renderer folder served as the web dashboard. Defaults to the core's `rendererDir`, else `dist/renderer`. */
  rendererDir?: string;
  /** Time a client has to send a whole request. Defaults to `requestTimeoutMs` of `createServer` (60 s). */
  requestTimeoutMs?: number;
  /** Check every admin answer against its response schema (tests). Defaults to `false`. */
  validateResponses?: boolean;
  /** Called for every route as it is registered (the route-table test). Defaults to none. */
  onRoute?: ServerOptions["onRoute"];
  /** On close, how long generations may run on before they are cut (`createServer`'s). */
  shutdownGraceMs?: number;
}

/**
 * The one way Perch's HTTP server is assembled over a core: security, error shape, every route
 * (`registerRoutes`) and the dashboard. Not listening: `perch serve` (`startServer`) listens on
 * it, the menu-bar app listens on one and answers the dashboard's IPC through another.
 */
export function buildServer(core: Core, options: BuildServerOptions = {}): Promise<FastifyInstance> {
  return createServer({
    apiKey: core.config.apiKey,
    instanceId: core.instanceId,
    allowRemoteAdmin: core.config.allowRemoteAdmin,
    rendererDir: options.rendererDir ?? core.config.rendererDir ?? builtRenderer,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    validateResponses: options.validateResponses,
    onRoute: options.onRoute,
    ...(options.shutdownGraceMs !== undefined ? { shutdownGraceMs: options.shutdownGraceMs } : {}),
    register: (app) => registerRoutes(app, core),
  });
}
