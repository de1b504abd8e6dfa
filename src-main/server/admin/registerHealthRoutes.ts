import type { FastifyInstance } from "fastify";
import type { HealthResponse } from "../../../src-shared/contracts/catalog.js";
import type { HealthRegistry } from "../../storage/HealthRegistry.js";

/** `GET /admin/api/health`: corrupt files moved aside, missing and duplicate models, scan errors. */
export async function registerHealthRoutes(
  app: FastifyInstance,
  deps: { health: HealthRegistry },
): Promise<void> {
  app.get("/admin/api/health", async (): Promise<HealthResponse> => {
    const warnings = await deps.health.list();
    return { status: warnings.length > 0 ? "degraded" : "ok", warnings };
  });
}
