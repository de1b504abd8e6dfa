import type { FastifyInstance } from "fastify";
import type { EnginePool, LoadedModelInfo } from "../../engine/EnginePool.js";
import type { Scheduler } from "../../scheduler/Scheduler.js";
import type { SchedulerStats } from "../../scheduler/SchedulerStats.js";

/** Body of `GET /admin/api/stats`: the scheduler's live figures plus what the pool holds. */
export interface StatsResponse extends SchedulerStats {
  loadedModels: LoadedModelInfo[];
  at: string;
}

/** Live server figures for the dashboard and the tray: sequences, queues, recent throughput. */
export function registerStatsRoutes(
  app: FastifyInstance,
  scheduler: Pick<Scheduler, "stats">,
  engine: Pick<EnginePool, "list">,
): void {
  app.get("/admin/api/stats", async (): Promise<StatsResponse> => ({
    ...scheduler.stats(),
    loadedModels: engine.list(),
    at: new Date().toISOString(),
  }));
}
