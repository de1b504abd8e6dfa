import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { serverStatsSchema, type SchedulerStats } from "../../../src-shared/contracts/stats.js";
import { registerStatsRoutes } from "../../../src-main/server/admin/registerStatsRoutes.js";

describe("GET /admin/api/stats", () => {
  it("answers the scheduler's figures and the pool's loaded models", async () => {
    const stats: SchedulerStats = {
      models: [
        {
          modelId: "m",
          sequences: 8,
          activeSequences: 2,
          queueDepth: 1,
          maxQueue: 64,
          contextSize: 4096,
          generatedTokensLastMinute: 600,
          tokensPerSecond: 10,
          requests: { completed: 5, cancelled: 1, rejected: 0, failed: 0 },
          speculation: {
            mode: "lookup",
            enabled: true,
            owner: null,
            sessionsCreated: 3,
            sessionsDropped: 3,
            validatedTokens: 40,
            refutedTokens: 10,
          },
          promptCache: {
            lookups: 6,
            slotHits: 2,
            tierHits: 1,
            hitRate: 0.5,
            reusedTokens: 900,
            promptTokens: 1500,
            saves: 2,
            restoreFailures: 0,
            ram: { entries: 1, bytes: 300_000, limitBytes: 2 ** 30 },
            disk: { entries: 1, bytes: 300_000, limitBytes: 2 ** 32 },
          },
          decodeShaping: {
            enabled: true,
            decodes: 120,
            chunkedDecodes: 60,
            gapMs: 1.2,
            sizes: [
              { size: 1, ms: 37, samples: 64 },
              { size: 2, ms: 95, samples: 56 },
            ],
          },
          decodeThreads: {
            threads: 2,
            decodes: 130,
            oneThreadDecodes: 110,
            sizes: [{ tokens: 1, oneThreadMs: 1.1, allThreadsMs: 19.5, chosenThreads: 1 }],
          },
        },
      ],
      totals: {
        activeSequences: 2,
        queueDepth: 1,
        generatedTokensLastMinute: 600,
        tokensPerSecond: 10,
        promptCache: {
          lookups: 6,
          hits: 3,
          hitRate: 0.5,
          reusedTokens: 900,
          ramBytes: 300_000,
          diskBytes: 300_000,
        },
      },
    };
    const app = Fastify();
    registerStatsRoutes(app, { stats: () => stats }, { list: () => [] });
    const response = await app.inject({ method: "GET", url: "/admin/api/stats" });
    expect(response.statusCode).toBe(200);
    const body = serverStatsSchema.parse(response.json());
    expect(body).toEqual({ ...stats, loadedModels: [], at: expect.any(String) });
    expect(Number.isNaN(Date.parse(body.at))).toBe(false);
    await app.close();
  });
});
