import type { FastifyInstance } from "fastify";
import type { CatalogServices } from "../../catalog/createCatalogServices.js";
import { registerDownloadsRoutes } from "./registerDownloadsRoutes.js";
import { registerHealthRoutes } from "./registerHealthRoutes.js";
import { registerModelsRoutes } from "./registerModelsRoutes.js";
import { registerResultsRoutes } from "./registerResultsRoutes.js";
import { registerSettingsRoutes } from "./registerSettingsRoutes.js";

/** Registers the models, settings, results, health and downloads routes in one call. */
export async function registerCatalogAdminRoutes(
  app: FastifyInstance,
  services: Pick<CatalogServices, "routes">,
): Promise<void> {
  await registerModelsRoutes(app, services.routes.models);
  await registerSettingsRoutes(app, services.routes.settings);
  await registerResultsRoutes(app, services.routes.results);
  await registerHealthRoutes(app, services.routes.health);
  await registerDownloadsRoutes(app, services.routes.downloads);
}
