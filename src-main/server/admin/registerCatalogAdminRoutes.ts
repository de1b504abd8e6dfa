import type { FastifyInstance } from "fastify";
import type { Stores } from "../../core/createStores.js";
import type { EngineView } from "../../engine/EngineView.js";
import { registerDownloadsRoutes } from "./registerDownloadsRoutes.js";
import { registerHealthRoutes } from "./registerHealthRoutes.js";
import { registerModelsRoutes } from "./registerModelsRoutes.js";
import { registerResultsRoutes } from "./registerResultsRoutes.js";
import { registerSettingsRoutes } from "./registerSettingsRoutes.js";

/** The stores these routes read and write, and the engine whose loaded models they show and unload. */
export type CatalogRouteDependencies = Stores & { engine: EngineView };

/** Registers the models, settings, results, health and downloads routes in one call. */
export async function registerCatalogAdminRoutes(
  app: FastifyInstance,
  deps: CatalogRouteDependencies,
): Promise<void> {
  await registerModelsRoutes(app, deps);
  await registerSettingsRoutes(app, deps);
  await registerResultsRoutes(app, deps);
  await registerHealthRoutes(app, deps);
  await registerDownloadsRoutes(app, deps);
}
