import { z } from "zod";
import { performanceResultSchema } from "./bench.js";
import { accuracyResultSchema } from "./evals.js";

/*
 * PROVISIONAL: minimal schemas for routes whose owners have not published a contract yet (the
 * result lists of the catalog issue, and the scheduler's stats). Each is replaced by
 * the owning contract as soon as it exists; the dashboard reads only the fields named here.
 */

export const accuracyResultListSchema = z.looseObject({ results: z.array(accuracyResultSchema) });
export const performanceResultListSchema = z.looseObject({ results: z.array(performanceResultSchema) });

/** `GET /admin/api/stats` (the scheduler's `SchedulerStats` plus the pool's loaded models). */
export const serverStatsSchema = z.looseObject({
  totals: z
    .looseObject({
      activeSequences: z.number(),
      queueDepth: z.number(),
      tokensPerSecond: z.number(),
    })
    .optional(),
  loadedModels: z.array(z.looseObject({ id: z.string() })).optional(),
});
export type ServerStats = z.infer<typeof serverStatsSchema>;
