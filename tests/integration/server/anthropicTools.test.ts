import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let anthropic: Anthropic;

beforeAll(async () => {
  server = await startTestServer();
  anthropic = new Anthropic({ baseURL: server.url, apiKey: "not-needed", maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
});

const lookup: Anthropic.Tool = {
  name: "lookup_order",
  description: "Find an order",
  input_schema: {
    type: "object",
    properties: {
      order_id: { type: "integer" },
      fields: { type: "array", items: { type: "string", enum: ["status", "total"] }, maxItems: 2 },
    },
    required: ["order_id", "fields"],
  },
};

/**
 * Greedy: with Anthropic's default temperature (1) and no seed the arguments' length was a draw that
 * could run past max_tokens (stop_reason max_tokens, 3 of 4 runs on one day). Perch honours
 * `temperature`; this SDK version leaves it out of its request types, so it is spread in untyped
 * (the SDK sends every field it is given).
 */
const greedy: object = { temperature: 0 };

describe("Anthropic tool use with the official @anthropic-ai/sdk", () => {
  it("round-trips tool_use → tool_result: toolu_ ids, stop_reason tool_use, input valid against the schema", async () => {
    const first = await anthropic.messages.create({
      model: server.mainModelId,
      max_tokens: 60,
      ...greedy,
      system: [{ type: "text", text: "You look up orders.", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: "Where is order 7?" }],
      tools: [lookup],
      tool_choice: { type: "tool", name: "lookup_order", disable_parallel_tool_use: true },
      metadata: { user_id: "someone" },
    });
    expect(first.stop_reason).toBe("tool_use");
    const use = first.content.find((block) => block.type === "tool_use");
    if (use?.type !== "tool_use") throw new Error("no tool_use block");
    expect(use.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(use.name).toBe("lookup_order");
    const input = use.input as { order_id: unknown; fields: unknown };
    expect(Number.isInteger(input.order_id)).toBe(true);
    expect(Array.isArray(input.fields)).toBe(true);
    for (const field of input.fields as unknown[]) expect(["status", "total"]).toContain(field);

    const second = await anthropic.messages.create({
      model: server.mainModelId,
      max_tokens: 5,
      messages: [
        { role: "user", content: "Where is order 7?" },
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: use.id, content: [{ type: "text", text: "shipped" }] },
            { type: "text", text: "Summarize." },
          ],
        },
      ],
      tools: [lookup],
      tool_choice: { type: "none" },
    });
    expect(["end_turn", "max_tokens"]).toContain(second.stop_reason);
    expect(second.content.some((block) => block.type === "tool_use")).toBe(false);
  });

  it("streams a tool_use block with input_json_delta that stream.finalMessage() accumulates", async () => {
    const stream = anthropic.messages.stream({
      model: server.mainModelId,
      max_tokens: 60,
      ...greedy,
      messages: [{ role: "user", content: "Order 3 status?" }],
      tools: [lookup],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
    });
    const events: string[] = [];
    stream.on("streamEvent", (event) => {
      if (event.type === "content_block_start") events.push(`start:${event.content_block.type}`);
      if (event.type === "content_block_delta") events.push(event.delta.type);
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe("tool_use");
    expect(events[0]).toBe("start:tool_use");
    expect(events).toContain("input_json_delta");
    // The turn is the call alone: no empty text block after it (Anthropic refuses one sent back).
    expect(final.content.map((block) => block.type)).toEqual(["tool_use"]);
    const use = final.content.find((block) => block.type === "tool_use");
    if (use?.type !== "tool_use") throw new Error("no tool_use block");
    expect(use.id).toMatch(/^toolu_/);
    expect(Number.isInteger((use.input as { order_id: unknown }).order_id)).toBe(true);
  });

  it("refuses a tool_result that answers no tool_use, in Anthropic's error shape", async () => {
    const error = await anthropic.messages
      .create({
        model: server.mainModelId,
        max_tokens: 2,
        messages: [
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_none", content: "x" }] },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    // Anthropic's envelope, not only the SDK's reading of it.
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
    const unknown = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "nope", max_tokens: 2, messages: [{ role: "user", content: "x" }] }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    // A block Perch cannot read is named, not "Invalid input".
    const image = await anthropic.messages
      .create({
        model: server.mainModelId,
        max_tokens: 2,
        messages: [
          {
            role: "user",
            content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AA==" } }],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(image).toBeInstanceOf(Anthropic.BadRequestError);
    expect((image as InstanceType<typeof Anthropic.BadRequestError>).message).toMatch(
      /image and document blocks are not supported/,
    );
    // A known block with a bad field is named down to that field, not as the whole content.
    const stringInput = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: server.mainModelId,
        max_tokens: 2,
        messages: [
          { role: "user", content: "time?" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "now", input: "{}" }] },
        ],
      }),
    });
    expect(stringInput.status).toBe(400);
    const { error: inputError } = (await stringInput.json()) as { error: { message: string } };
    expect(inputError.message).toContain("'messages.1.content.0.input'");
    expect(inputError.message).toMatch(/input is an object/);
    expect(inputError.message).not.toMatch(/image and document blocks/);
  });

  it("counts a request's prompt tokens (count_tokens) as the messages call then evaluates them", async () => {
    const body = {
      model: server.mainModelId,
      system: "Answer briefly.",
      messages: [{ role: "user" as const, content: "Order 3 status?" }],
    };
    const plain = await anthropic.messages.countTokens(body);
    const withTools = await anthropic.messages.countTokens({ ...body, tools: [lookup] });
    expect(withTools.input_tokens).toBeGreaterThan(plain.input_tokens);
    const cases: [Anthropic.MessageTokensCount, Anthropic.Tool[] | undefined][] = [
      [plain, undefined],
      [withTools, [lookup]],
    ];
    for (const [counted, tools] of cases) {
      const reply = await anthropic.messages.create({ ...body, ...(tools ? { tools } : {}), max_tokens: 1 });
      expect(counted.input_tokens).toBe(
        reply.usage.input_tokens + (reply.usage.cache_read_input_tokens ?? 0),
      );
    }
    const error = await anthropic.messages
      .countTokens({ ...body, model: "nope" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    const bad = await anthropic.messages
      .countTokens({ ...body, messages: [] })
      .catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
  });
});

describe("Anthropic stop reasons with the official @anthropic-ai/sdk", () => {
  it("says stop_sequence and which one when a stop sequence ended the text, streamed or not", async () => {
    const request = {
      model: server.mainModelId,
      max_tokens: 24,
      ...greedy,
      messages: [{ role: "user" as const, content: "hi" }],
    };
    const free = await anthropic.messages.create(request);
    const text = free.content[0]!.type === "text" ? free.content[0]!.text : "";
    expect(text.length).toBeGreaterThan(8);
    // A piece of the greedy answer, after its start: the answer stops just before it.
    const stop = text.slice(4, 7);
    const cut = text.slice(0, text.indexOf(stop));
    const stopped = await anthropic.messages.create({ ...request, stop_sequences: ["\u0000never", stop] });
    expect(stopped).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: stop });
    expect(stopped.content).toEqual([{ type: "text", text: cut }]);
    const streamed = await anthropic.messages.stream({ ...request, stop_sequences: [stop] }).finalMessage();
    expect(streamed).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: stop });
    expect(streamed.content).toEqual([{ type: "text", text: cut }]);
  });

  it("answers a tool call max_tokens cut off as a tool_use block, streamed or not", async () => {
    const request = {
      model: server.mainModelId,
      ...greedy,
      messages: [{ role: "user" as const, content: "Order 3 status?" }],
      tools: [lookup],
      tool_choice: { type: "any" as const },
    };
    const whole = await anthropic.messages.create({ ...request, max_tokens: 60 });
    expect(whole.stop_reason).toBe("tool_use");
    // Every limit that ends inside the call: the stream's final message and the answer agree.
    for (const maxTokens of [10, 14, whole.usage.output_tokens - 1]) {
      const cut = await anthropic.messages.create({ ...request, max_tokens: maxTokens });
      const streamed = await anthropic.messages.stream({ ...request, max_tokens: maxTokens }).finalMessage();
      expect(cut.stop_reason).toBe("max_tokens");
      expect(streamed.stop_reason).toBe("max_tokens");
      const types = cut.content.map((block) => block.type);
      expect(streamed.content.map((block) => block.type)).toEqual(types);
      if (types.length === 0 || types[0] === "text") continue; // cut before the call began
      expect(types).toEqual(["tool_use"]);
      const [use] = cut.content;
      if (use?.type !== "tool_use") throw new Error("no tool_use");
      expect(use.name).toBe("lookup_order");
      expect(typeof use.input).toBe("object");
    }
  });

  it("answers no content, not an empty text block, when max_tokens ends a forced call before it starts", async () => {
    const request = {
      model: server.mainModelId,
      ...greedy,
      messages: [{ role: "user" as const, content: "weather?" }],
      tools: [
        {
          name: "get_weather",
          input_schema: {
            type: "object" as const,
            properties: {
              city: { type: "string", enum: ["Paris", "Rome"] },
              days: { type: "integer" },
              note: { type: "string" },
            },
            required: ["city", "days", "note"],
          },
        },
      ],
      tool_choice: { type: "any" as const },
    };
    for (const maxTokens of [1, 2, 3, 4, 5]) {
      const cut = await anthropic.messages.create({ ...request, max_tokens: maxTokens });
      expect(cut.stop_reason).toBe("max_tokens");
      expect(cut.content.filter((block) => block.type === "text" && block.text === "")).toEqual([]);
      // One token is never a whole call's opening: nothing was produced.
      if (maxTokens === 1) expect(cut.content).toEqual([]);
      const events: { type: string; content_block?: { type: string } }[] = [];
      const stream = anthropic.messages.stream({ ...request, max_tokens: maxTokens });
      for await (const event of stream) events.push(event);
      const streamed = await stream.finalMessage();
      expect(streamed.content).toEqual(cut.content);
      const opened = events.filter((event) => event.type === "content_block_start");
      expect(opened.map((event) => event.content_block!.type)).toEqual(
        cut.content.map((block) => block.type),
      );
      expect(events.filter((event) => event.type === "content_block_stop")).toHaveLength(opened.length);
      expect(events.at(-1)!.type).toBe("message_stop");
    }
  });
});

describe("Anthropic's Models API on the shared /v1/models", () => {
  it("answers the Anthropic SDK in Anthropic's shape and OpenAI clients in OpenAI's", async () => {
    const page = await anthropic.models.list();
    const main = page.data.find((model) => model.id === server.mainModelId);
    expect(main).toMatchObject({ type: "model", display_name: server.mainModelId });
    expect(Number.isNaN(Date.parse(main!.created_at))).toBe(false);
    expect(page.has_more).toBe(false);
    expect(await anthropic.models.retrieve(server.mainModelId)).toMatchObject({
      type: "model",
      id: server.mainModelId,
    });
    const openAi = (await (await fetch(`${server.url}/v1/models`)).json()) as {
      object: string;
      data: unknown[];
    };
    expect(openAi.object).toBe("list");
    expect(openAi.data[0]).toMatchObject({ object: "model", owned_by: "perch" });
  });

  it("answers an unknown model there in Anthropic's error shape too", async () => {
    const missing = await fetch(`${server.url}/v1/models/no-such-model`, {
      headers: { "anthropic-version": "2023-06-01" },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    await expect(anthropic.models.retrieve("no-such-model")).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    // OpenAI clients keep OpenAI's shape on the same route.
    const plain = await fetch(`${server.url}/v1/models/no-such-model`);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe("model_not_found");
  });
});

describe("Anthropic stream usage", () => {
  it("message_start carries the prompt's usage, as message_delta does at the end", async () => {
    const stream = anthropic.messages.stream({
      model: server.mainModelId,
      max_tokens: 6,
      messages: [{ role: "user", content: "Count the waves on the sea." }],
    });
    let startUsage: Anthropic.Usage | undefined;
    stream.on("streamEvent", (event) => {
      // A copy: the SDK goes on updating the message it started with.
      if (event.type === "message_start") startUsage = { ...event.message.usage };
    });
    const final = await stream.finalMessage();
    expect(startUsage!.input_tokens + (startUsage!.cache_read_input_tokens ?? 0)).toBeGreaterThan(5);
    expect(startUsage!.input_tokens).toBe(final.usage.input_tokens);
    expect(startUsage!.cache_read_input_tokens).toBe(final.usage.cache_read_input_tokens);
    expect(startUsage!.output_tokens).toBe(0);
  });
});
