import type { FastifyInstance } from "fastify";
import type { EnginePool } from "../../engine/EnginePool.js";
import type { Scheduler } from "../../scheduler/Scheduler.js";
import { serveRoute } from "../serveRoute.js";

/** Live server figures for the dashboard and the tray: sequences, queues, recent throughput. */
export function registerStatsRoutes(
  app: FastifyInstance,
  scheduler: Pick<Scheduler, "stats">,
  engine: Pick<EnginePool, "list">,
): void {
  serveRoute(app, "stats", () => ({
    ...scheduler.stats(),
    loadedModels: engine.list(),
    at: new Date().toISOString(),
  }));
}
