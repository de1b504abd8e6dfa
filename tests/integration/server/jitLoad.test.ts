import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PerfEvent } from "../../../src-shared/contracts/performance.js";
import { serverStatsSchema } from "../../../src-shared/contracts/stats.js";
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

  it("reports the model's sequences, requests and throughput at /admin/api/stats, in its contract", async () => {
    const response = await fetch(`${server.url}/admin/api/stats`);
    expect(response.status).toBe(200);
    // Strict: a field the scheduler adds or drops without the contract fails here.
    const stats = serverStatsSchema.parse(await response.json());
    const model = stats.models.find((entry) => entry.modelId === server.mainModelId);
    expect(model).toMatchObject({
      sequences: 8,
      activeSequences: 0,
      queueDepth: 0,
      requests: { completed: 8, cancelled: 0, rejected: 0, failed: 0 },
      speculation: { mode: "off", owner: null, sessionsCreated: 0 },
    });
    expect(model!.generatedTokensLastMinute).toBeGreaterThanOrEqual(8);
    expect(stats.totals.generatedTokensLastMinute).toBe(model!.generatedTokensLastMinute);
    expect(stats.loadedModels).toEqual([
      expect.objectContaining({ id: server.mainModelId, state: "loaded", activeUsers: 0 }),
    ]);
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

  it("serves a model under its alias (any case, Ollama's :latest too) as the same loaded model", async () => {
    await server.putModelSettings({ alias: "Team Coder" });
    const loadsBefore = server.core.engine.loadCount(server.mainModelId);
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "none" });
    const chat = await openai.chat.completions.create({
      model: "team coder",
      messages: [{ role: "user", content: "Hi" }],
      max_tokens: 2,
    });
    expect(chat.choices[0]!.message.content).toEqual(expect.any(String));
    // The name /api/tags lists (`<id>:latest`) serves on /v1 too.
    const tagged = await openai.embeddings.create({ model: `${server.mainModelId}:latest`, input: "Hi" });
    expect(tagged.data).toHaveLength(1);
    // GET /v1/models/{name} takes the alias too, and answers the model's id.
    expect((await openai.models.retrieve("TEAM CODER:latest")).id).toBe(server.mainModelId);
    const ollama = new Ollama({ host: server.url });
    const reply = await ollama.chat({
      model: "Team Coder:latest",
      messages: [{ role: "user", content: "Hi" }],
      options: { num_predict: 2 },
    });
    expect(reply.done).toBe(true);
    expect((await ollama.show({ model: "Team Coder" })).details).toBeDefined();
    // One model in memory, under its id; the alias did not load a second copy.
    expect(server.core.engine.loadCount(server.mainModelId)).toBe(loadsBefore);
    expect(server.core.engine.list().map((model) => model.id)).toEqual([server.mainModelId]);
    await expect(
      openai.chat.completions.create({ model: "Team Coder 2", messages: [{ role: "user", content: "Hi" }] }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("keys a benchmark and an eval run started under the alias by the model's id", async () => {
    const post = (route: string, body: object) =>
      fetch(`${server.url}/admin/api/${route}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const perfStart = await post("bench/start", {
      model_id: "TEAM CODER:latest",
      prompt_lengths: [128],
      batch_sizes: [],
      generated_tokens: 4,
    });
    expect(perfStart.status).toBe(202);
    const { run_id: perfRunId } = (await perfStart.json()) as { run_id: string };
    const run = server.core.perf.runner.get(perfRunId)!;
    const last = await new Promise<PerfEvent>((resolve) => {
      run.subscribe((event) => {
        if (["completed", "failed", "cancelled"].includes(event.type)) resolve(event);
      });
    });
    expect(last.type).toBe("completed");
    const result = (last as Extract<PerfEvent, { type: "completed" }>).result;
    expect(result.target).toEqual({ kind: "local", model_id: server.mainModelId });
    // The history and the model's speed summary find it under the id.
    expect((await server.core.performanceResults.get(result.result_id)).target).toEqual(result.target);

    const evalStart = await post("bench/accuracy/queue", { model_id: "team coder", benchmarks: ["gsm8k"] });
    expect(evalStart.status).toBe(202);
    const summary = (await evalStart.json()) as { run_id: string; target: unknown };
    expect(summary.target).toEqual({ kind: "local", model_id: server.mainModelId });
    server.core.evals.cancel(summary.run_id);
  });
});

describe("a prompt far longer than the context", () => {
  it("is refused from a count in pieces (the event loop runs between them), streamed requests beside it answered", async () => {
    const huge = "word ".repeat(600_000); // 3 MB: ~600k tokens against a context of a few thousand
    const beside = fetch(`${server.url}/v1/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: server.mainModelId, prompt: "Hi", max_tokens: 8, stream: true }),
    }).then((response) => response.text());
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: server.mainModelId,
        messages: [{ role: "user", content: huge }],
        max_tokens: 4,
      }),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; param: string; message: string } };
    expect(error).toMatchObject({ code: "context_length_exceeded", param: "messages" });
    expect(error.message).toContain("counted in pieces");
    expect(await beside).toContain("[DONE]");
  });
});

describe("a draft model held by its target", () => {
  it("is listed as drafting for it, not as in use, and unloads on request (the target serves on without it)", async () => {
    await server.putModelSettings({ speculative: { mode: "draft", draftModel: server.draftModelId } });
    await server.core.engine.unload(server.mainModelId);
    const complete = () =>
      fetch(`${server.url}/v1/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: server.mainModelId,
          prompt: "Hello there",
          max_tokens: 12,
          temperature: 0,
        }),
      });
    const first = await complete();
    expect(first.status).toBe(200);
    const stats = serverStatsSchema.parse(await (await fetch(`${server.url}/admin/api/stats`)).json());
    expect(stats.loadedModels.find((info) => info.id === server.draftModelId)).toMatchObject({
      activeUsers: 0,
      draftFor: [server.mainModelId],
    });
    // Was 409 "it is in use. Try again when it is idle." for as long as the target stayed loaded.
    const unload = await fetch(`${server.url}/admin/api/models/${server.draftModelId}/unload`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(unload.status).toBe(200);
    expect(await unload.json()).toMatchObject({ unloaded: true });
    expect(server.core.engine.isLoaded(server.draftModelId)).toBe(false);
    const after = await complete();
    expect(after.status).toBe(200);
    await server.putModelSettings({});
  });
});
