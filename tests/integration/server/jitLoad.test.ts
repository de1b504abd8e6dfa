import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverStatsSchema } from "../../../src-shared/contracts/stats.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("just-in-time loading", () => {
  it("loads a model exactly once when 8 first requests arrive together", async () => {
    expect(server.core.engine.isLoaded(server.mainModelId)).toBe(false);
    const request = () =>
      fetch(`${server.url}/v1/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: server.mainModelId, prompt: "Hello", max_tokens: 2, temperature: 0 }),
      });
    const responses = await Promise.all(Array.from({ length: 8 }, request));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(server.core.engine.loadCount(server.mainModelId)).toBe(1);
    expect(server.core.engine.isLoaded(server.mainModelId)).toBe(true);
  });

  it("reports the model's sequences, requests and throughput at /admin/api/stats, in its contract", async () => {
    const response = await fetch(`${server.url}/admin/api/stats`);
    expect(response.status).toBe(200);
    // Strict: a field the scheduler adds or drops without the contract fails here.
    const stats = serverStatsSchema.parse(await response.json());
    const model = stats.models.find((entry) => entry.modelId === server.mainModelId);
    expect(model).toMatchObject({
      sequences: 8,
      activeSequences: 0,
      queueDepth: 0,
      requests: { completed: 8, cancelled: 0, rejected: 0, failed: 0 },
      speculation: { mode: "off", owner: null, sessionsCreated: 0 },
    });
    expect(model!.generatedTokensLastMinute).toBeGreaterThanOrEqual(8);
    expect(stats.totals.generatedTokensLastMinute).toBe(model!.generatedTokensLastMinute);
    expect(stats.loadedModels).toEqual([
      expect.objectContaining({ id: server.mainModelId, state: "loaded", activeUsers: 0 }),
    ]);
  });

  it("unloads on request and loads again on the next request", async () => {
    await server.core.engine.unload(server.mainModelId);
    expect(server.core.engine.isLoaded(server.mainModelId)).toBe(false);
    const response = await fetch(`${server.url}/v1/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: server.mainModelId, prompt: "Hi", max_tokens: 1 }),
    });
    expect(response.status).toBe(200);
    expect(server.core.engine.loadCount(server.mainModelId)).toBe(2);
  });
});
