import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const generateOnce = () =>
  fetch(`${server.url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: server.mainModelId, prompt: "Hi", max_tokens: 1 }),
  });
const memoryOf = () =>
  server.core.engine.list().find((model) => model.id === server.mainModelId)?.estimatedBytes ?? 0;

describe("the memory a loaded model counts", () => {
  it("includes its generation context: a long context counts more, and the budget sees it", async () => {
    await server.putModelSettings({ context_size: 256, max_concurrent_requests: 1 });
    expect((await generateOnce()).status).toBe(200);
    const small = memoryOf();
    await server.core.engine.unload(server.mainModelId);
    await server.putModelSettings({ context_size: 32768, max_concurrent_requests: 4 });
    expect((await generateOnce()).status).toBe(200);
    const large = memoryOf();
    // node-llama-cpp's estimate for this model: ~130 MiB at 32768 tokens x 4, ~2 MiB at 256 x 1
    // (what the process's memory grew by, measured from outside: ~440 MB at 65536 x 8 for 450 MiB).
    expect(large - small).toBeGreaterThan(64 * 1024 * 1024);
    // Given back when the model unloads.
    await server.core.engine.unload(server.mainModelId);
    expect(memoryOf()).toBe(0);
  });
});
