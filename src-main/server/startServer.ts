import type { FastifyInstance } from "fastify";
import type { Core } from "../core/createCore.js";
import { buildServer, type BuildServerOptions } from "./buildServer.js";
import { createLogger } from "../base/createLogger.js";
import { errorMessage } from "../base/describeError.js";
import { PerchError } from "../base/PerchError.js";
import { forgetServerAddress, readServerAddress, recordServerAddress } from "../settings/serverAddress.js";

const log = createLogger("server");

/**
 * Builds the server over a core (`buildServer`) and starts listening; returns the app and its base
 * URL, which is recorded in `<base>/server.json` while the server runs (the CLI finds it there).
 */
export async function startServer(
  core: Core,
  options: BuildServerOptions & {
    /**
     * Record the address in `<base>/server.json` (default). `false` for a private server (`perch
     * run`'s own), which must neither replace nor remove the record of the base's real server.
     */
    recordAddress?: boolean;
  } = {},
): Promise<{ app: FastifyInstance; url: string }> {
  const { recordAddress = true, ...buildOptions } = options;
  if (recordAddress) await assertNoOtherServer(core);
  const app = await buildServer(core, buildOptions);
  if (recordAddress) app.addHook("onClose", async () => forgetServerAddress(core.config.basePath));
  await app.listen({ host: core.config.host, port: core.config.port });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : core.config.port;
  core.settings.markListening({ host: core.config.host, port });
  const host = core.config.host.includes(":") ? `[${core.config.host}]` : core.config.host;
  const url = `http://${host}:${port}`;
  // Without the record the CLI still finds a server on the configured port: a warning, not a failure.
  if (recordAddress) {
    await recordServerAddress(core.config.basePath, url).catch((error: unknown) => {
      log.warn({ err: errorMessage(error) }, "could not record the server's address for the CLI");
    });
  }
  return { app, url };
}

/**
 * Two servers on one base folder would write the same files and load every model twice, and the
 * CLI can find only one of them: a second `perch serve` (or the app beside one) is refused while
 * the recorded server answers with this base's instance id. A record left by a process that died,
 * or whose pid now belongs to something else, is ignored.
 */
async function assertNoOtherServer(core: Core): Promise<void> {
  const record = readServerAddress(core.config.basePath);
  if (!record || record.pid === process.pid) return;
  const health = await fetch(`${record.url}/health`, { signal: AbortSignal.timeout(2000) })
    .then((response) => response.json() as Promise<{ instance?: string }>)
    .catch(() => undefined);
  if (health?.instance !== core.instanceId) return;
  throw new PerchError(
    "conflict",
    `Another Perch server (pid ${record.pid}) already serves ${core.config.basePath} at ${record.url}. ` +
      "Stop it first, or give this one its own folder (--base-path DIR).",
    { details: { url: record.url, pid: record.pid } },
  );
}
