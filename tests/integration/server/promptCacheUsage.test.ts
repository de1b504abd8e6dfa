import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverStatsSchema } from "../../../src-shared/contracts/stats.js";
import { createCore, type Core } from "../../../src-main/core/createCore.js";
import { perchPaths } from "../../../src-main/base/perchPaths.js";
import { startServer } from "../../../src-main/server/startServer.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

/**
 * Issue 16 over HTTP: the reuse a prompt got is reported (`prompt_tokens_details.cached_tokens` on
 * chat and completions, streaming too; Anthropic's `cache_read_input_tokens`; the stats), and a
 * conversation saved by one Perch is restored by the next one on the same base path.
 */

const words = ["alpha", "beta", "gamma", "delta", "river", "stone", "cloud", "ember", "north", "quiet"];
const system = (seed: number) =>
  `Conversation ${seed}. ${Array.from({ length: 400 }, (_, i) => words[(i * seed + seed) % words.length]).join(" ")}`;
const chatBody = (seed: number, question: string, stream = false) => ({
  model: "",
  max_tokens: 8,
  temperature: 0,
  stream,
  ...(stream ? { stream_options: { include_usage: true } } : {}),
  messages: [
    { role: "system", content: system(seed) },
    { role: "user", content: question },
  ],
});

/** The fields these tests read, from the OpenAI and Anthropic answers alike. */
interface Answer {
  usage: Record<string, number> & { prompt_tokens_details: { cached_tokens: number } };
  choices: { message: { content: string } }[];
}

let server: TestServer;
let restarted: { core: Core; close: () => Promise<void>; url: string } | undefined;

async function post(url: string, route: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
}

/** The streamed chunks' JSON payloads. */
async function postStream(url: string, body: Record<string, unknown>): Promise<Partial<Answer>[]> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as Partial<Answer>);
}

beforeAll(async () => {
  server = await startTestServer();
  // One sequence: every other conversation evicts the last one into the tier.
  await server.putModelSettings({ context_size: 4096, max_concurrent_requests: 1 });
});

afterAll(async () => {
  await restarted?.close();
  await server?.close();
});

describe("prompt cache over HTTP", () => {
  it("reports reuse on chat, streaming chat, completions and messages, and in the stats", async () => {
    const model = server.mainModelId;
    const a1 = await post(server.url, "/v1/chat/completions", { ...chatBody(3, "first"), model });
    expect(a1.usage.prompt_tokens_details.cached_tokens).toBeLessThan(16);
    await post(server.url, "/v1/chat/completions", { ...chatBody(7, "other"), model });

    // A returns after B evicted it: restored from the tier, reported in the final usage chunk.
    const chunks = await postStream(server.url, { ...chatBody(3, "second", true), model });
    const usage = chunks.at(-1)?.usage;
    if (!usage) throw new Error("no usage chunk");
    expect(usage.prompt_tokens).toBeGreaterThan(400);
    expect(usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(usage.prompt_tokens - 16);

    const messages = await post(server.url, "/v1/messages", {
      model,
      max_tokens: 8,
      temperature: 0,
      system: system(3),
      messages: [{ role: "user", content: "third" }],
    });
    expect(messages.usage.cache_read_input_tokens).toBeGreaterThan(400);
    expect(messages.usage.input_tokens + messages.usage.cache_read_input_tokens).toBeGreaterThan(400);
    expect(messages.usage.input_tokens).toBeLessThan(16);

    const text = `Story. ${system(5)}`;
    await post(server.url, "/v1/completions", {
      model,
      prompt: `${text} one`,
      max_tokens: 4,
      temperature: 0,
    });
    const again = await post(server.url, "/v1/completions", {
      model,
      prompt: `${text} two`,
      max_tokens: 4,
      temperature: 0,
    });
    expect(again.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(again.usage.prompt_tokens - 8);

    const stats = serverStatsSchema.parse(await (await fetch(`${server.url}/admin/api/stats`)).json());
    const cache = stats.models.find((entry) => entry.modelId === model)!.promptCache;
    expect(cache.lookups).toBe(6);
    expect(cache.tierHits).toBe(1);
    expect(cache.slotHits).toBe(2);
    expect(cache.saves).toBeGreaterThanOrEqual(2);
    expect(cache.ram.entries).toBeGreaterThanOrEqual(1);
    expect(stats.totals.promptCache.hits).toBe(3);
    expect(stats.totals.promptCache.hitRate).toBeCloseTo(0.5);
  });

  it("a new Perch on the same base path restores a conversation the last one saved", async () => {
    const model = server.mainModelId;
    const before = await post(server.url, "/v1/chat/completions", { ...chatBody(11, "question"), model });
    await post(server.url, "/v1/chat/completions", { ...chatBody(13, "question"), model });
    // Closing unloads the model: the RAM tier and the idle sequence go to disk.
    await server.app.close();
    await server.core.close();
    expect(
      fs.readdirSync(perchPaths(server.basePath).promptCache, { recursive: true }).length,
    ).toBeGreaterThan(1);

    const core = await createCore({ basePath: server.basePath, port: 0, logLevel: "warn" });
    const { app, url } = await startServer(core);
    restarted = {
      core,
      url,
      close: async () => {
        await app.close();
        await core.close();
      },
    };
    const after = await post(url, "/v1/chat/completions", { ...chatBody(11, "question"), model });
    expect(after.choices[0]?.message.content).toBe(before.choices[0]?.message.content);
    expect(after.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(after.usage.prompt_tokens - 16);
    const stats = serverStatsSchema.parse(await (await fetch(`${url}/admin/api/stats`)).json());
    expect(stats.models[0]!.promptCache.tierHits).toBe(1);
  });
});
