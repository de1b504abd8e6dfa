import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Core } from "../core/createCore.js";
import { packageRoot } from "../base/packageRoot.js";
import { createServer } from "./createServer.js";
import { registerRoutes } from "./registerRoutes.js";

/** The built dashboard beside Perch's package.json, from the sources and from the dist/main build alike. */
const builtRenderer = path.join(packageRoot()?.dir ?? process.cwd(), "dist/renderer");

/** Builds the server over a core and starts listening; returns the app and its base URL. */
export async function startServer(core: Core): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createServer({
    apiKey: core.config.apiKey,
    allowRemoteAdmin: core.config.allowRemoteAdmin,
    rendererDir: core.config.rendererDir ?? builtRenderer,
    register: (instance) => registerRoutes(instance, core),
  });
  await app.listen({ host: core.config.host, port: core.config.port });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : core.config.port;
  core.catalog.settings.markListening({ host: core.config.host, port });
  const host = core.config.host.includes(":") ? `[${core.config.host}]` : core.config.host;
  return { app, url: `http://${host}:${port}` };
}
