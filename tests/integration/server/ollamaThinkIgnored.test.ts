import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  // The draft model in a format with a thought segment; the main model keeps ChatML (none).
  await server.putModelSettings({ chat_format: "qwen3.5" }, server.draftModelId);
});
afterAll(async () => {
  await server?.close();
});

async function ignoredFields(path: string, body: Record<string, unknown>): Promise<string[]> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ options: { num_predict: 2 }, ...body }),
  });
  expect(response.status).toBe(200);
  await response.text();
  return (response.headers.get("x-perch-ignored-fields") ?? "").split(", ").filter(Boolean);
}

const chat = (model: string, think: unknown, stream: boolean) =>
  ignoredFields("/api/chat", { model, think, stream, messages: [{ role: "user", content: "hi" }] });

describe("Ollama's think where the model cannot think", () => {
  it("is listed as ignored, streamed or not, with levels too, and on raw prompts", async () => {
    const main = server.mainModelId;
    for (const stream of [false, true]) {
      expect(await chat(main, true, stream), `stream ${stream}`).toContain("think");
      expect(await chat(main, "high", stream), `stream ${stream}`).toContain("think");
    }
    const raw = { model: main, prompt: "hi", raw: true, think: true, stream: false };
    expect(await ignoredFields("/api/generate", raw)).toContain("think");
    // Other ignored fields stay listed beside it.
    const both = await ignoredFields("/api/chat", {
      model: main,
      think: true,
      stream: false,
      messages: [{ role: "user", content: "hi" }],
      options: { num_predict: 2, mirostat: 1 },
    });
    expect(both).toEqual(expect.arrayContaining(["options.mirostat", "think"]));
  });

  it("is not listed where the model thinks, nor when it is false", async () => {
    expect(await chat(server.draftModelId, true, false)).not.toContain("think");
    expect(await chat(server.draftModelId, true, true)).not.toContain("think");
    expect(await chat(server.mainModelId, false, false)).not.toContain("think");
  });
});
