import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  server = await startTestServer();
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: server.url, apiKey: "not-needed", maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
});

describe("official openai SDK against perch serve", () => {
  it("lists the generated models", async () => {
    const models = await openai.models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids).toContain(server.mainModelId);
    expect(ids).toContain(server.draftModelId);
  });

  it("answers a non-streaming chat completion with usage and finish_reason", async () => {
    const reply = await openai.chat.completions.create({
      model: server.mainModelId,
      messages: [{ role: "user", content: "Say something." }],
      max_tokens: 12,
      temperature: 0,
    });
    expect(reply.object).toBe("chat.completion");
    expect(reply.choices[0].message.role).toBe("assistant");
    expect(typeof reply.choices[0].message.content).toBe("string");
    expect(["stop", "length"]).toContain(reply.choices[0].finish_reason);
    expect(reply.usage!.prompt_tokens).toBeGreaterThan(0);
    const used = reply.usage!.completion_tokens;
    expect(used).toBeLessThanOrEqual(12);
    // Short of the limit only when the model ended its turn itself.
    expect(reply.choices[0].finish_reason).toBe(used < 12 ? "stop" : "length");
    expect(reply.usage!.total_tokens).toBe(reply.usage!.prompt_tokens + used);
  });

  it("streams a chat completion whose text equals the non-streaming greedy text", async () => {
    const request = {
      model: server.mainModelId,
      messages: [{ role: "user" as const, content: "Count to three." }],
      max_tokens: 16,
      temperature: 0,
    };
    const whole = await openai.chat.completions.create(request);
    const stream = await openai.chat.completions.create({
      ...request,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let finish: string | null = null;
    let usageSeen = false;
    const usages: unknown[] = [];
    const deltas: Record<string, unknown>[] = [];
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) text += chunk.choices[0].delta.content;
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
      if (chunk.usage) usageSeen = chunk.usage.completion_tokens > 0;
      usages.push(chunk.usage);
      if (chunk.choices[0]) deltas.push(chunk.choices[0].delta as Record<string, unknown>);
    }
    expect(text).toBe(whole.choices[0].message.content);
    expect(finish).toBe(whole.choices[0].finish_reason);
    expect(usageSeen).toBe(true);
    // OpenAI's shape: with include_usage every chunk but the last says `usage: null`.
    expect(usages.slice(0, -1).every((usage) => usage === null)).toBe(true);
    // The first chunk opens the message; no chunk after it is empty except the finish chunk.
    expect(deltas[0]).toMatchObject({ role: "assistant" });
    expect(deltas.slice(1, -1).every((delta) => Object.keys(delta).length > 0)).toBe(true);
  });

  it("stops at max_tokens with finish_reason length", async () => {
    const reply = await openai.completions.create({
      model: server.mainModelId,
      prompt: "def add(a, b):",
      max_tokens: 3,
      temperature: 0,
    });
    expect(reply.object).toBe("text_completion");
    expect(reply.usage!.completion_tokens).toBeLessThanOrEqual(3);
    if (reply.usage!.completion_tokens === 3) expect(reply.choices[0].finish_reason).toBe("length");
  });

  it("streams a text completion", async () => {
    const stream = await openai.completions.create({
      model: server.mainModelId,
      prompt: "The",
      max_tokens: 5,
      stream: true,
      temperature: 0,
    });
    let chunks = 0;
    for await (const chunk of stream) if (chunk.choices[0]?.text) chunks += 1;
    expect(chunks).toBeGreaterThan(0);
  });

  it("constrains output to a JSON schema that parses and validates", async () => {
    const reply = await openai.chat.completions.create({
      model: server.mainModelId,
      messages: [{ role: "user", content: "Give me a person." }],
      max_tokens: 200,
      temperature: 0,
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "person",
          schema: {
            type: "object",
            properties: { name: { type: "string", maxLength: 12 }, age: { type: "integer" } },
            required: ["name", "age"],
            additionalProperties: false,
          },
        },
      },
    });
    const parsed = JSON.parse(reply.choices[0].message.content ?? "") as { name: unknown; age: unknown };
    expect(typeof parsed.name).toBe("string");
    expect(Number.isInteger(parsed.age)).toBe(true);
  });

  it("answers an unknown model with a 404 in the OpenAI error shape", async () => {
    const error = await openai.chat.completions
      .create({ model: "no-such-model", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const apiError = error as InstanceType<typeof OpenAI.NotFoundError>;
    expect(apiError.status).toBe(404);
    expect(apiError.code).toBe("model_not_found");
  });
});

describe("official @anthropic-ai/sdk against perch serve", () => {
  // This SDK version has no temperature parameter: make the model greedy through its settings,
  // the way a user would, so streamed and whole answers can be compared.
  beforeAll(async () => {
    await server.putModelSettings({ sampling: { temperature: 0 } });
  });

  it("answers a non-streaming message", async () => {
    const message = await anthropic.messages.create({
      model: server.mainModelId,
      max_tokens: 10,
      system: "You are terse.",
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(message.type).toBe("message");
    expect(message.content[0].type).toBe("text");
    expect(["end_turn", "max_tokens", "stop_sequence"]).toContain(message.stop_reason);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it("streams message events whose text matches the non-streaming text", async () => {
    const request = {
      model: server.mainModelId,
      max_tokens: 10,
      messages: [{ role: "user" as const, content: "Hi" }],
      temperature: 0,
    };
    const whole = await anthropic.messages.create(request);
    const stream = anthropic.messages.stream(request);
    const events: string[] = [];
    stream.on("streamEvent", (event) => events.push(event.type));
    const final = await stream.finalMessage();
    const wholeText = whole.content[0].type === "text" ? whole.content[0].text : "";
    const streamedText = final.content[0]?.type === "text" ? final.content[0].text : "";
    expect(streamedText).toBe(wholeText);
    expect(events[0]).toBe("message_start");
    expect(events).toContain("message_delta");
    expect(events.at(-1)).toBe("message_stop");
  });
});
