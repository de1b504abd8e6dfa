import { Ollama, type ChatResponse } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let ollama: Ollama;
let name: string;

beforeAll(async () => {
  server = await startTestServer();
  ollama = new Ollama({ host: server.url });
  name = `${server.mainModelId}:latest`;
  // One sequence: a second request waits in the queue for the first.
  await server.putModelSettings({ max_concurrent_requests: 1 });
});
afterAll(async () => {
  await server?.close();
});

const ask = (content: string) =>
  ollama.chat({
    model: name,
    messages: [{ role: "user", content }],
    options: { temperature: 0, num_predict: 24 },
  });

/** What `total_duration` holds beyond load, prompt and generation: the template and the queue. */
const rest = (reply: ChatResponse) =>
  reply.total_duration - reply.load_duration - reply.prompt_eval_duration - reply.eval_duration;

describe("Ollama's durations", () => {
  it("count a cold load in load_duration and a queue wait in neither prompt_eval nor eval", async () => {
    expect(server.core.engine.isLoaded(server.mainModelId)).toBe(false);
    const [first, queued] = await Promise.all([ask("Tell me a story."), ask("Tell me another.")]);
    for (const reply of [first, queued]) {
      // The load both waited for: its own duration, not generation time.
      expect(reply.load_duration).toBeGreaterThan(0);
      expect(reply.prompt_eval_duration).toBeGreaterThan(0);
      expect(reply.eval_duration).toBeGreaterThan(0);
      expect(rest(reply)).toBeGreaterThanOrEqual(0);
    }
    // One of them waited for the other's whole generation before its prompt was admitted.
    const waited = Math.max(rest(first), rest(queued));
    expect(waited).toBeGreaterThanOrEqual(Math.min(first.eval_duration, queued.eval_duration));
    // Warm and alone: nothing to load.
    const warm = await ask("Once more.");
    expect(warm.load_duration).toBeLessThan(first.load_duration);
    expect(rest(warm)).toBeGreaterThanOrEqual(0);
  });
});
