import type { FastifyInstance } from "fastify";
import type { ServerStats } from "../../../src-shared/contracts/stats.js";
import type { EnginePool } from "../../engine/EnginePool.js";
import type { Scheduler } from "../../scheduler/Scheduler.js";

/** Live server figures for the dashboard and the tray: sequences, queues, recent throughput. */
export function registerStatsRoutes(
  app: FastifyInstance,
  scheduler: Pick<Scheduler, "stats">,
  engine: Pick<EnginePool, "list">,
): void {
  app.get("/admin/api/stats", async (): Promise<ServerStats> => ({
    ...scheduler.stats(),
    loadedModels: engine.list(),
    at: new Date().toISOString(),
  }));
}
