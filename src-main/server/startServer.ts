import type { FastifyInstance } from "fastify";
import type { Core } from "../core/createCore.js";
import { buildServer, type BuildServerOptions } from "./buildServer.js";

/** Builds the server over a core (`buildServer`) and starts listening; returns the app and its base URL. */
export async function startServer(
  core: Core,
  options: BuildServerOptions = {},
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildServer(core, options);
  await app.listen({ host: core.config.host, port: core.config.port });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : core.config.port;
  core.settings.markListening({ host: core.config.host, port });
  const host = core.config.host.includes(":") ? `[${core.config.host}]` : core.config.host;
  return { app, url: `http://${host}:${port}` };
}
