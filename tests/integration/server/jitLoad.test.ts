import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
