import { Ollama } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchStats } from "../../helpers/hardeningChecks.js";
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

const post = (path: string, body: unknown, method = "POST") =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the ollama npm client against perch serve", () => {
  it("lists the models with tags, GGUF details and digests", async () => {
    const { models } = await ollama.list();
    const main = models.find((model) => model.name === name);
    expect(main).toBeDefined();
    expect(main!.model).toBe(name);
    expect(main!.size).toBeGreaterThan(0);
    expect(main!.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(main!.details).toMatchObject({ format: "gguf", family: "llama", quantization_level: "Q8_0" });
    expect(main!.details.parameter_size).toMatch(/^\d+(\.\d)?[KMB]$/);
    expect(new Date(main!.modified_at).getTime()).toBeGreaterThan(0);
    expect(models.map((model) => model.name)).toContain(`${server.draftModelId}:latest`);
  });

  it("answers version", async () => {
    expect((await ollama.version()).version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("chats without streaming: the greedy text equals /v1's, with Ollama's statistics", async () => {
    const reply = await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "Say something." }],
      options: { temperature: 0, num_predict: 12 },
    });
    const openai = await post("/v1/chat/completions", {
      model: server.mainModelId,
      messages: [{ role: "user", content: "Say something." }],
      temperature: 0,
      max_tokens: 12,
    });
    const expected = (await openai.json()) as {
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number };
    };
    expect(reply.message.role).toBe("assistant");
    expect(reply.message.content).toBe(expected.choices[0].message.content);
    expect(reply.done).toBe(true);
    expect(["stop", "length"]).toContain(reply.done_reason);
    expect(reply.model).toBe(name);
    expect(reply.prompt_eval_count).toBe(expected.usage.prompt_tokens);
    expect(reply.eval_count).toBeLessThanOrEqual(12);
    expect(reply.done_reason).toBe(reply.eval_count < 12 ? "stop" : "length");
    expect(reply.total_duration).toBeGreaterThan(0);
  });

  it("streams a chat as NDJSON whose text equals the non-streaming text", async () => {
    const request = {
      model: name,
      messages: [{ role: "user", content: "Count to three." }],
      options: { temperature: 0, num_predict: 16 },
    };
    const whole = await ollama.chat(request);
    const stream = await ollama.chat({ ...request, stream: true });
    let text = "";
    let last: Awaited<typeof whole> | undefined;
    let pieces = 0;
    for await (const part of stream) {
      text += part.message.content;
      pieces += 1;
      last = part;
    }
    expect(pieces).toBeGreaterThan(2);
    expect(text).toBe(whole.message.content);
    expect(last).toMatchObject({ done: true, done_reason: whole.done_reason, eval_count: whole.eval_count });
  });

  it("stops generating when a streaming client goes away (abort)", async () => {
    const stream = await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "Write a long story." }],
      stream: true,
      options: { num_predict: 4000 },
    });
    let pieces = 0;
    await expect(
      (async () => {
        for await (const part of stream) {
          expect(part.done).toBe(false);
          if (++pieces === 3) stream.abort();
        }
      })(),
    ).rejects.toThrow();
    await expect
      .poll(async () => (await fetchStats(server.url)).totals.activeSequences, { timeout: 10_000 })
      .toBe(0);
    const stats = await fetchStats(server.url);
    expect(
      stats.models.find((model) => model.modelId === server.mainModelId)!.requests.cancelled,
    ).toBeGreaterThanOrEqual(1);
  });

  it("streams by default over plain HTTP (application/x-ndjson)", async () => {
    const response = await post("/api/chat", {
      model: name,
      messages: [{ role: "user", content: "hi" }],
      options: { num_predict: 4 },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { done: boolean });
    expect(lines.at(-1)!.done).toBe(true);
    expect(lines.slice(0, -1).every((line) => line.done === false)).toBe(true);
  });

  it("answers the curl lines of Ollama's README (curl -d sends a urlencoded content type)", async () => {
    const response = await fetch(`${server.url}/api/generate`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: JSON.stringify({
        model: name,
        prompt: "Why is the sky blue?",
        stream: false,
        options: { num_predict: 4 },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { response: string; done: boolean; eval_count: number };
    expect(body.done).toBe(true);
    expect(body.eval_count).toBe(4);
  });

  it("constrains output with format json and with a JSON schema", async () => {
    const json = await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "Give me JSON." }],
      format: "json",
      options: { temperature: 0, num_predict: 48 },
    });
    if (json.done_reason === "stop") expect(() => JSON.parse(json.message.content)).not.toThrow();
    const schema = {
      type: "object",
      properties: { answer: { type: "string", enum: ["yes", "no"] } },
      required: ["answer"],
    };
    const structured = await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "Yes or no?" }],
      format: schema,
      options: { temperature: 0, num_predict: 32 },
    });
    expect(structured.done_reason).toBe("stop");
    expect(["yes", "no"]).toContain((JSON.parse(structured.message.content) as { answer: string }).answer);
  });

  it("maps options (seed, temperature, stop) onto sampling and lists ignored ones in a header", async () => {
    const request = {
      model: name,
      messages: [{ role: "user", content: "Tell a story." }],
      stream: false as const,
    };
    const a = await ollama.chat({ ...request, options: { temperature: 1, seed: 7, num_predict: 16 } });
    const b = await ollama.chat({ ...request, options: { temperature: 1, seed: 7, num_predict: 16 } });
    expect(a.message.content).toBe(b.message.content);
    const response = await post("/api/chat", {
      ...request,
      options: { num_predict: 4, mirostat: 2, num_gpu: 1 },
      unknown_field: 1,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-perch-ignored-fields")).toBe(
      "unknown_field, options.mirostat, options.num_gpu",
    );
  });

  it("drops the oldest turns of a conversation longer than the context, keeping the system message", async () => {
    const words = (turn: number) => Array.from({ length: 60 }, (_, i) => `w${turn}x${i}`).join(" ");
    const messages = [
      { role: "system", content: "You are terse." },
      ...Array.from({ length: 40 }, (_, turn) => [
        { role: "user", content: `Question ${turn}: ${words(turn)}` },
        { role: "assistant", content: `Answer ${turn}: ${words(turn + 100)}` },
      ]).flat(),
      { role: "user", content: "And now?" },
    ];
    // Through /v1 the same conversation is refused: OpenAI clients expect no silent cut.
    const refused = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: server.mainModelId, messages, max_tokens: 4 }),
    });
    expect(refused.status).toBe(400);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("context_length_exceeded");
    const contextSize = Number(/holds (\d+)/.exec(error.message)?.[1]);
    const reply = await ollama.chat({
      model: name,
      messages,
      stream: false,
      options: { num_predict: 4 },
    });
    expect(reply.done).toBe(true);
    expect(reply.prompt_eval_count).toBeLessThanOrEqual(contextSize - 4);
    // Most of the context is used: only whole old turns went.
    expect(reply.prompt_eval_count).toBeGreaterThan(contextSize / 2);
    // Streamed alike.
    const lines: { done: boolean }[] = [];
    for await (const part of await ollama.chat({
      model: name,
      messages,
      stream: true,
      options: { num_predict: 4 },
    }))
      lines.push(part);
    expect(lines.at(-1)?.done).toBe(true);
    // A last message that alone does not fit is still a 400.
    const huge = await post("/api/chat", {
      model: name,
      stream: false,
      messages: [{ role: "user", content: Array.from({ length: 40 }, (_, turn) => words(turn)).join(" ") }],
    });
    expect(huge.status).toBe(400);
    expect(huge.headers.get("x-perch-error-code")).toBe("context_length_exceeded");
  });

  it("reads null fields as unset, as Ollama's Go decoding does (body, options, messages)", async () => {
    const nulls = {
      format: null,
      keep_alive: null,
      think: null,
      tools: null,
      stream: null,
      options: { temperature: null, stop: null, num_predict: 4, seed: 3 },
    };
    const withNulls = await post("/api/chat", {
      model: name,
      messages: [
        { role: "user", content: "Hi", images: null, tool_calls: null },
        { role: "assistant", content: null },
        { role: "user", content: "Hi" },
      ],
      ...nulls,
      stream: false,
    });
    expect(withNulls.status).toBe(200);
    // null stream is Ollama's default: a stream.
    const streamed = await post("/api/generate", { model: name, prompt: "Hi", context: null, ...nulls });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("content-type")).toContain("application/x-ndjson");
    await streamed.text();
    const embedded = await post("/api/embed", { model: name, input: "x", truncate: null, keep_alive: null });
    expect(embedded.status).toBe(200);
  });

  it("generates from a prompt (templated and raw) and refuses images and suffix with 400", async () => {
    const templated = await ollama.generate({
      model: name,
      prompt: "Hello",
      options: { temperature: 0, num_predict: 8 },
    });
    expect(templated.response).toBeTypeOf("string");
    expect(templated.done).toBe(true);
    const raw = await ollama.generate({
      model: name,
      prompt: "Hello",
      raw: true,
      options: { temperature: 0, num_predict: 8 },
    });
    const completion = await post("/v1/completions", {
      model: server.mainModelId,
      prompt: "Hello",
      temperature: 0,
      max_tokens: 8,
    });
    expect(raw.response).toBe(((await completion.json()) as { choices: { text: string }[] }).choices[0].text);
    const stream = await ollama.generate({
      model: name,
      prompt: "Hello",
      stream: true,
      options: { temperature: 0, num_predict: 8 },
    });
    let text = "";
    for await (const part of stream) text += part.response;
    expect(text).toBe(templated.response);
    for (const [field, value] of [
      ["images", ["aGk="]],
      ["suffix", "return x"],
      ["template", "{{ .Prompt }}"],
      ["context", [1, 2]],
    ] as const) {
      const error = await ollama
        .generate({ model: name, prompt: "x", [field]: value } as never)
        .catch((caught: unknown) => caught as { status_code: number; error: string });
      expect(error).toMatchObject({ status_code: 400 });
      expect((error as { error: string }).error).toContain(field);
    }
  });

  it("loads with an empty prompt, follows keep_alive in ps, and unloads with keep_alive 0", async () => {
    await server.core.engine.unload(server.mainModelId);
    const loaded = await ollama.generate({ model: name, prompt: "", keep_alive: "10m" });
    expect(loaded).toMatchObject({ done: true, done_reason: "load" });
    const ps = await ollama.ps();
    const running = ps.models.find((model) => model.name === name);
    expect(running).toBeDefined();
    const left = new Date(running!.expires_at).getTime() - Date.now();
    expect(left).toBeGreaterThan(9 * 60_000);
    expect(left).toBeLessThanOrEqual(10 * 60_000 + 1000);
    expect(running!.size).toBeGreaterThan(0);
    // The load built the generation context, as Ollama's does: its size shows before any request.
    expect((running as unknown as { context_length?: number }).context_length).toBeGreaterThan(0);
    await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "hi" }],
      keep_alive: -1,
      options: { num_predict: 2 },
    });
    const forever = (await ollama.ps()).models.find((model) => model.name === name)!;
    expect(new Date(forever.expires_at).getFullYear()).toBeGreaterThan(9000);
    const unloaded = await ollama.generate({ model: name, prompt: "", keep_alive: 0 });
    expect(unloaded.done_reason).toBe("unload");
    await expect.poll(() => server.core.engine.isLoaded(server.mainModelId)).toBe(false);
    expect((await ollama.ps()).models.find((model) => model.name === name)).toBeUndefined();
    await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "hi" }],
      keep_alive: 0,
      options: { num_predict: 2 },
    });
    await expect.poll(() => server.core.engine.isLoaded(server.mainModelId)).toBe(false);
  });

  it("embeds with embed (normalized, batched) and the legacy embeddings", async () => {
    const embedded = await ollama.embed({ model: name, input: ["first text", "second text"] });
    expect(embedded.embeddings).toHaveLength(2);
    const length = Math.hypot(...embedded.embeddings[0]);
    expect(length).toBeCloseTo(1, 4);
    expect(embedded.prompt_eval_count).toBeGreaterThan(0);
    const single = await ollama.embed({ model: name, input: "first text" });
    single.embeddings[0].forEach((value, index) =>
      expect(value).toBeCloseTo(embedded.embeddings[0][index], 5),
    );
    const legacy = await ollama.embeddings({ model: name, prompt: "first text" });
    const legacyLength = Math.hypot(...legacy.embedding);
    legacy.embedding.forEach((value, index) =>
      expect(value / legacyLength).toBeCloseTo(embedded.embeddings[0][index], 4),
    );
    // Over the context: cut by default, refused with truncate false.
    const long = Array.from({ length: 9000 }, (_, index) => `w${index}x`).join(" ");
    expect((await ollama.embed({ model: name, input: long })).embeddings).toHaveLength(1);
    const refused = await post("/api/embed", { model: name, input: long, truncate: false });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-perch-error-code")).toBe("context_length_exceeded");
    // An empty string embeds nothing, as Ollama; an empty item of a list is refused, never a 0-length vector.
    expect((await ollama.embed({ model: name, input: "" })).embeddings).toEqual([]);
    const emptyItem = await post("/api/embed", { model: name, input: ["a", ""] });
    expect(emptyItem.status).toBe(400);
    expect(((await emptyItem.json()) as { error: string }).error).toContain("input.1");
    const withOptions = await post("/api/embed", { model: name, input: "x", options: { num_ctx: 4096 } });
    expect(withOptions.status).toBe(200);
    expect(withOptions.headers.get("x-perch-ignored-fields")).toBe("options.num_ctx");
  });

  it("shows a model: details, GGUF model_info, template, capabilities", async () => {
    const shown = await ollama.show({ model: name });
    expect(shown.details).toMatchObject({ format: "gguf", family: "llama" });
    const info = shown.model_info as unknown as Record<string, unknown>;
    expect(info["general.architecture"]).toBe("llama");
    expect(info["llama.context_length"]).toBeTypeOf("number");
    expect(info["tokenizer.ggml.tokens"]).toBeNull();
    expect(shown.template).toContain("<|im_start|>");
    expect(shown.modelfile).toContain("FROM ");
    expect(shown.capabilities).toEqual(expect.arrayContaining(["completion", "embedding"]));
  });

  it("answers errors in Ollama's shape with the right status and Perch's code in a header", async () => {
    const missing = await ollama
      .chat({ model: "no-such-model", messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught as { status_code: number; error: string });
    // Ollama's own words, from chat (the scheduler's lookup) as from show (the route's).
    expect(missing).toMatchObject({ status_code: 404, error: "model 'no-such-model' not found" });
    const raw = await post("/api/show", { model: "nothing:latest" });
    expect(raw.status).toBe(404);
    expect(raw.headers.get("x-perch-error-code")).toBe("model_not_found");
    expect((await raw.json()) as object).toEqual({ error: "model 'nothing:latest' not found" });
    const embedMissing = await post("/api/embed", { model: "no-such-model", input: "x" });
    expect(await embedMissing.json()).toEqual({ error: "model 'no-such-model' not found" });
    const bad = await post("/api/chat", { model: name, messages: "hi" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain("messages");
    const unknownRoute = await fetch(`${server.url}/api/nothing`);
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.headers.get("x-perch-error-code")).toBe("not_found");
    for (const path of ["/api", "/api/", "/api?x=1"]) {
      const bare = await fetch(`${server.url}${path}`);
      expect(bare.status, path).toBe(404);
      expect(bare.headers.get("x-perch-error-code"), path).toBe("not_found");
      expect(Object.keys((await bare.json()) as object), path).toEqual(["error"]);
    }
    const invalid = await ollama
      .chat({ model: name, messages: [{ role: "user", content: "hi" }], keep_alive: "soon" })
      .catch((caught: unknown) => caught as { status_code: number; error: string });
    expect(invalid).toMatchObject({ status_code: 400 });
    expect((invalid as { error: string }).error).toContain("keep_alive");
  });

  it("answers a body over the limit with a 413 in Ollama's shape, while the body still arrives", async () => {
    const prompt = "x".repeat(5 * 1024 * 1024);
    const raw = await post("/api/generate", { model: name, prompt, stream: false });
    expect(raw.status).toBe(413);
    expect(raw.headers.get("x-perch-error-code")).toBe("body_too_large");
    expect((await raw.json()) as object).toEqual({
      error: "The request body is larger than the server accepts.",
    });
    const refused = await ollama
      .generate({ model: name, prompt })
      .catch((caught: unknown) => caught as { status_code: number; error: string });
    expect(refused).toMatchObject({ status_code: 413, error: expect.stringContaining("larger") });
    // /v1 keeps its own shape for the same refusal.
    const openai = await post("/v1/completions", { model: server.mainModelId, prompt });
    expect(openai.status).toBe(413);
    expect(((await openai.json()) as { error: { code: string } }).error.code).toBe("body_too_large");
    // And the server keeps serving.
    expect((await ollama.version()).version).toMatch(/^\d/);
  });

  it("answers a URL the router cannot read in Ollama's shape under /api", async () => {
    const raw = await fetch(`${server.url}/api/%E0%A4%A`);
    expect(raw.status).toBe(400);
    expect(raw.headers.get("x-perch-error-code")).toBe("invalid_request");
    expect(Object.keys((await raw.json()) as object)).toEqual(["error"]);
  });
});

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", maxLength: 8 },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
      },
      required: ["city", "unit"],
    },
  },
};

describe("Ollama tool calling through the ollama npm client", () => {
  it("takes tools: the model decides (the generated model answers in text)", async () => {
    const reply = await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weather],
      options: { temperature: 0, num_predict: 8 },
    });
    expect(reply.done).toBe(true);
    expect(reply.message.tool_calls ?? []).toEqual([]);
    expect(reply.message.content).toBeTypeOf("string");
  });

  it("returns message.tool_calls with arguments as an object valid for the schema (forced by Perch's tool_choice)", async () => {
    const request = {
      model: name,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weather],
      tool_choice: "required",
      options: { temperature: 0, num_predict: 60 },
    };
    const reply = await ollama.chat(request as Parameters<typeof ollama.chat>[0] & { stream?: false });
    expect(reply.done).toBe(true);
    expect(reply.done_reason).toBe("stop");
    expect(reply.message.tool_calls).toHaveLength(1);
    const call = reply.message.tool_calls![0];
    expect(call.function.name).toBe("get_weather");
    const args = call.function.arguments as { city: unknown; unit: unknown };
    expect(Object.keys(args).sort()).toEqual(["city", "unit"]);
    expect(typeof args.city).toBe("string");
    expect(["celsius", "fahrenheit"]).toContain(args.unit);

    // Streaming: the whole call arrives in one line before the closing one, as Ollama sends it.
    const stream = await ollama.chat({ ...(request as Parameters<typeof ollama.chat>[0]), stream: true });
    const calls: unknown[] = [];
    for await (const part of stream) calls.push(...(part.message.tool_calls ?? []));
    expect(calls).toEqual(reply.message.tool_calls);

    // The loop: the call and a `tool` message answering it go back in the model's own format.
    const withResult = await ollama.chat({
      model: name,
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: "", tool_calls: reply.message.tool_calls },
        {
          role: "tool",
          tool_name: "get_weather",
          content: JSON.stringify({ temperature: 21, sky: "clear" }),
        },
      ],
      tools: [weather],
      options: { temperature: 0, num_predict: 6 },
    });
    expect(withResult.done).toBe(true);
    expect(withResult.message.tool_calls ?? []).toEqual([]);
    const withoutResult = await ollama.chat({
      model: name,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weather],
      options: { temperature: 0, num_predict: 6 },
    });
    expect(withResult.prompt_eval_count).toBeGreaterThan(withoutResult.prompt_eval_count + 10);
  });

  it("refuses a call nobody answered with a 400 naming messages, and tool_choice without tools", async () => {
    const unanswered = await post("/api/chat", {
      model: name,
      stream: false,
      tools: [weather],
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ function: { name: "get_weather", arguments: { city: "Rome", unit: "celsius" } } }],
        },
        { role: "user", content: "And?" },
      ],
    });
    expect(unanswered.status).toBe(400);
    expect(unanswered.headers.get("x-perch-error-code")).toBe("invalid_request");
    const choiceAlone = await post("/api/chat", {
      model: name,
      stream: false,
      messages: [{ role: "user", content: "hi" }],
      tool_choice: "required",
    });
    expect(choiceAlone.status).toBe(400);
    expect(((await choiceAlone.json()) as { error: string }).error).toContain("tool_choice");
  });
});
