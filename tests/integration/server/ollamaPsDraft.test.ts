import { Ollama } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let ollama: Ollama;

beforeAll(async () => {
  server = await startTestServer();
  ollama = new Ollama({ host: server.url });
  await server.putModelSettings({ speculative: { mode: "draft", draftModel: server.draftModelId } });
});
afterAll(async () => {
  await server?.close();
});

describe("/api/ps with a draft model held by its target (speculative decoding)", () => {
  it("gives the draft its target's context length and an expiry after its target's, fixed while idle", async () => {
    const target = `${server.mainModelId}:latest`;
    const draft = `${server.draftModelId}:latest`;
    await ollama.chat({
      model: target,
      messages: [{ role: "user", content: "hi" }],
      keep_alive: "10m",
      options: { num_predict: 4 },
    });
    const ps = async () => {
      const { models } = await ollama.ps();
      return {
        target: models.find((model) => model.name === target)!,
        draft: models.find((model) => model.name === draft)!,
      };
    };
    const first = await ps();
    expect(first.draft).toBeDefined();
    const context = (model: object) => (model as { context_length?: number }).context_length;
    expect(context(first.draft)).toBe(context(first.target));
    // Released when its target unloads, then its own idle TTL.
    const draftTtl = server.core.engine.list().find((info) => info.id === server.draftModelId)!.ttlSeconds;
    const targetExpiry = new Date(first.target.expires_at).getTime();
    expect(new Date(first.draft.expires_at).getTime()).toBe(targetExpiry + draftTtl * 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await ps()).draft.expires_at).toBe(first.draft.expires_at);
  });
});
