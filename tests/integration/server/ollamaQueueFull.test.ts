import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  // One sequence and no queue: a second request while one runs is refused with a 429.
  await server.putModelSettings({ max_concurrent_requests: 1, max_queue: 0 });
});
afterAll(async () => {
  await server?.close();
});

const generate = (stream: boolean, signal?: AbortSignal) =>
  fetch(`${server.url}/api/generate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: server.mainModelId,
      prompt: "Write a long story.",
      stream,
      options: { num_predict: stream ? 4000 : 4 },
    }),
    signal,
  });

describe("a full queue on the Ollama routes", () => {
  it("answers 429 with Retry-After streaming or not", async () => {
    const controller = new AbortController();
    const running = await generate(true, controller.signal);
    const reader = running.body!.getReader();
    // Its first line: it holds the only sequence.
    await reader.read();
    try {
      for (const stream of [false, true]) {
        const refused = await generate(stream);
        expect(refused.status, `stream ${stream}`).toBe(429);
        expect(refused.headers.get("retry-after"), `stream ${stream}`).toBe("1");
        expect(refused.headers.get("x-perch-error-code"), `stream ${stream}`).toBe("queue_full");
        expect(Object.keys((await refused.json()) as object)).toEqual(["error"]);
      }
    } finally {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    }
  });
});
