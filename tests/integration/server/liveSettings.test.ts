import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverStatsSchema } from "../../../src-shared/contracts/stats.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

/**
 * Settings saved while a model is loaded: per-request fields (sampling, queue length) and TTL apply
 * to the next request; fields that shape the context (its size, sequences, chat format...) wait
 * for the next load, and then apply.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const complete = async () => {
  const response = await fetch(`${server.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: server.mainModelId, prompt: "alpha beta gamma", temperature: 0 }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { usage: { completion_tokens: number } };
};

const putSettings = (settings: Record<string, unknown>) => server.putModelSettings(settings);

const modelStats = async () => {
  const stats = serverStatsSchema.parse(await (await fetch(`${server.url}/admin/api/stats`)).json());
  return stats.models.find((model) => model.modelId === server.mainModelId);
};

describe("settings saved while the model is loaded", () => {
  it("apply sampling at once and the context size on the next load", async () => {
    await putSettings({ sampling: { max_tokens: 40 }, context_size: 512 });
    expect((await complete()).usage.completion_tokens).toBeGreaterThan(5);
    expect(server.core.engine.loadCount(server.mainModelId)).toBe(1);
    expect((await modelStats())?.contextSize).toBe(512);

    await putSettings({ sampling: { max_tokens: 3 }, context_size: 256, max_queue: 5 });
    // The next request already uses the new default length, and the queue its new length...
    expect((await complete()).usage.completion_tokens).toBeLessThanOrEqual(3);
    expect((await modelStats())?.maxQueue).toBe(5);
    // ...while the context stays as loaded, without a reload behind the user's back.
    expect((await modelStats())?.contextSize).toBe(512);
    expect(server.core.engine.loadCount(server.mainModelId)).toBe(1);

    await server.core.engine.unload(server.mainModelId);
    await complete();
    expect((await modelStats())?.contextSize).toBe(256);
  });
});
