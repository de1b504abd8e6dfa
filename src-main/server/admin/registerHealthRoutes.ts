import type { FastifyInstance } from "fastify";
import type { HealthRegistry } from "../../storage/HealthRegistry.js";
import { serveRoute } from "../serveRoute.js";

/** `GET /admin/api/health`: corrupt files moved aside, missing and duplicate models, scan errors. */
export async function registerHealthRoutes(
  app: FastifyInstance,
  deps: { health: HealthRegistry },
): Promise<void> {
  serveRoute(app, "health", async () => {
    const warnings = await deps.health.list();
    return { status: warnings.length > 0 ? "degraded" : "ok", warnings };
  });
}
