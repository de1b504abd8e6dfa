import fs from "node:fs";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { toApiError } from "./toApiError.js";
import { PerchError } from "../core/PerchError.js";
import { registerSecurity } from "./registerSecurity.js";

/** Largest accepted request body. Explicit so a 10 MB body answers 413, not a crash. */
export const maxBodyBytes = 4 * 1024 * 1024;

export interface ServerOptions {
  apiKey?: string;
  allowRemoteAdmin: boolean;
  /** Built renderer folder, served as the web dashboard at `/`. */
  rendererDir?: string;
  /** Registers the routes of every domain. */
  register: (app: FastifyInstance) => Promise<void> | void;
}

/** Builds the HTTP server: error shape, body limits, auth, then each domain's routes. */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: maxBodyBytes,
    // Client ids and model ids may contain '/', so keep params as they come.
    routerOptions: { maxParamLength: 1024, ignoreTrailingSlash: true },
    return503OnClosing: false,
  });

  app.setErrorHandler((error, _request, reply) => {
    const { status, body } = toApiError(error);
    if (status >= 500) app.log.error(error);
    void reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const { status, body } = toApiError(
      new PerchError("not_found", `No route for ${request.method} ${request.url.split("?")[0]}`),
    );
    void reply.status(status).send(body);
  });

  await registerSecurity(app, { apiKey: options.apiKey, allowRemoteAdmin: options.allowRemoteAdmin });
  app.get("/health", async () => ({ status: "ok" }));
  await options.register(app);

  const rendererDir = options.rendererDir;
  if (rendererDir && fs.existsSync(path.join(rendererDir, "index.html"))) {
    await app.register(fastifyStatic, {
      root: path.resolve(rendererDir),
      prefix: "/",
      index: "index.html",
      wildcard: false,
    });
  }
  return app;
}
