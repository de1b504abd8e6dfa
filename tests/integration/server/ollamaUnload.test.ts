import { Ollama } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let ollama: Ollama;
let name: string;

beforeAll(async () => {
  server = await startTestServer();
  ollama = new Ollama({ host: server.url });
  name = `${server.mainModelId}:latest`;
});
afterAll(async () => {
  await server?.close();
});

const stateOf = () => server.core.engine.list().find((info) => info.id === server.mainModelId)?.state;

/** `ollama stop`: an empty prompt with `keep_alive: 0`. */
const stop = () => ollama.generate({ model: name, prompt: "", keep_alive: 0 });

describe("Ollama's unload (ollama stop)", () => {
  it("unloads a busy model as soon as its running request ends", async () => {
    const stream = await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "Write a long story." }],
      stream: true,
      options: { num_predict: 64 },
    });
    let stopped = false;
    let pieces = 0;
    for await (const part of stream) {
      pieces += 1;
      if (!stopped) {
        expect(stateOf()).toBe("loaded");
        expect((await stop()).done_reason).toBe("unload");
        stopped = true;
        // Still serving the request it was asked to stop under.
        expect(stateOf()).toBe("loaded");
        // ollama ps says it goes now, not in the year 9999 (its TTL of "never" read as-is).
        const listed = (await ollama.ps()).models.find((model) => model.name === name);
        expect(Math.abs(new Date(listed!.expires_at).getTime() - Date.now())).toBeLessThan(60_000);
      }
      if (part.done) expect(part.eval_count).toBeGreaterThan(1);
    }
    expect(pieces).toBeGreaterThan(2);
    await expect.poll(() => server.core.engine.isLoaded(server.mainModelId)).toBe(false);
  });

  it("unloads a model asked to stop while it loads, once its request ends", async () => {
    await server.core.engine.unload(server.mainModelId);
    const reply = ollama.chat({
      model: name,
      messages: [{ role: "user", content: "hi" }],
      options: { num_predict: 8 },
    });
    await expect.poll(stateOf, { interval: 1, timeout: 5000 }).toBe("loading");
    expect((await stop()).done_reason).toBe("unload");
    expect((await reply).done).toBe(true);
    await expect.poll(() => server.core.engine.isLoaded(server.mainModelId)).toBe(false);
  });
});
