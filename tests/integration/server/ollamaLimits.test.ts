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

const generate = (options: Record<string, unknown>) =>
  ollama.generate({ model: name, prompt: "Tell me a story.", options: { num_predict: 12, ...options } });

describe("Ollama's limits, no stricter than Ollama's", () => {
  it("takes any integer seed, reduced modulo 2^32: the same seed samples the same", async () => {
    const seed = 1733312345678; // Date.now(), as clients send it
    const sampling = { temperature: 1.5, top_k: 0, top_p: 1, min_p: 0 };
    const first = await generate({ ...sampling, seed });
    const again = await generate({ ...sampling, seed });
    expect(again.response).toBe(first.response);
    // What the sampler gets: the seed modulo 2^32.
    const reduced = await generate({ ...sampling, seed: seed % 2 ** 32 });
    expect(reduced.response).toBe(first.response);
    expect((await generate({ ...sampling, seed: -(2 ** 40) - 3 })).done).toBe(true);
    const fraction = await fetch(`${server.url}/api/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: name, prompt: "hi", stream: false, options: { seed: 1.5 } }),
    });
    expect(fraction.status).toBe(400);
  });

  it("takes a temperature above 2 and a top_k above 1000 (llama.cpp keeps at most the vocabulary)", async () => {
    expect((await generate({ temperature: 3 })).done).toBe(true);
    expect((await generate({ temperature: 100, top_k: 2000 })).done).toBe(true);
    // Beyond a 32-bit int: the whole vocabulary.
    expect((await generate({ temperature: 1, top_k: 2 ** 40 })).done).toBe(true);
  });

  it("embeds an empty list into no vectors (200)", async () => {
    const embedded = await ollama.embed({ model: name, input: [] });
    expect(embedded.embeddings).toEqual([]);
  });
});
