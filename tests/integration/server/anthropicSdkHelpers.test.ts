import Anthropic from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { jsonSchemaOutputFormat } from "@anthropic-ai/sdk/helpers/json-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let anthropic: Anthropic;
/** The JSON body of every request the client sent, in order. */
const sent: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = await startTestServer();
  anthropic = new Anthropic({
    baseURL: server.url,
    apiKey: "not-needed",
    maxRetries: 0,
    fetch: async (url, init) => {
      if (typeof init?.body === "string") sent.push(JSON.parse(init.body) as Record<string, unknown>);
      return fetch(url, init);
    },
  });
});
afterAll(async () => {
  await server?.close();
});

/** Greedy: this SDK version leaves `temperature` out of some request types, so it is spread in untyped. */
const greedy: object = { temperature: 0 };

const post = (body: unknown, path = "/v1/messages") =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });

function lookupTool(calls: unknown[]) {
  return betaTool({
    name: "lookup_order",
    description: "Find an order",
    inputSchema: {
      type: "object",
      properties: { order_id: { type: "integer" } },
      required: ["order_id"],
    },
    run: (input) => {
      calls.push(input);
      return "shipped";
    },
  });
}

describe("the Anthropic SDK's helpers against Perch", () => {
  it.each([false, true])(
    "runs client.beta.messages.toolRunner() over a message thread (stream: %s)",
    async (stream) => {
      const calls: unknown[] = [];
      sent.length = 0;
      const runner = anthropic.beta.messages.toolRunner({
        model: server.mainModelId,
        max_tokens: 40,
        ...greedy,
        system: "You look up orders.",
        messages: [{ role: "user", content: "Where is order 7?" }],
        tools: [lookupTool(calls)],
        // Forced by grammar: every turn calls the tool, so the second turn has a result to send.
        tool_choice: { type: "any" },
        max_iterations: 2,
        stream,
      });
      const replies: Anthropic.Beta.BetaMessage[] = [];
      for await (const turn of runner) {
        replies.push("finalMessage" in turn ? await turn.finalMessage() : turn);
      }
      expect(replies).toHaveLength(2);
      for (const reply of replies) expect(reply.stop_reason).toBe("tool_use");
      expect(calls.length).toBeGreaterThanOrEqual(2);
      // It really threaded: the second turn sent only the tool result, continuing the first answer.
      const second = sent.filter((body) => "thread" in body)[1]!;
      expect(second.thread).toEqual({ type: "continue", previous_message_id: replies[0]!.id });
      expect(second.tools).toBeUndefined();
      expect(second.system).toBeUndefined();
      expect(second.messages).toHaveLength(1);
    },
  );

  it("refuses a continue of an unknown answer in the shape the SDK replays from (never generates without history)", async () => {
    const response = await post({
      model: server.mainModelId,
      max_tokens: 5,
      thread: { type: "continue", previous_message_id: "msg_unknown" },
      messages: [{ role: "user", content: "Go on." }],
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { type: string; error: { type: string; details: unknown } };
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("not_found_error");
    expect(body.error.details).toEqual({ error_code: "thread_not_found" });
  });

  it("continues a thread once: the conversation comes back, a second continue of the same answer is refused", async () => {
    const first = await post({
      model: server.mainModelId,
      max_tokens: 3,
      ...greedy,
      thread: { type: "create" },
      system: "Be brief.",
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(first.status).toBe(200);
    const { id } = (await first.json()) as { id: string };
    const continueBody = {
      model: server.mainModelId,
      max_tokens: 3,
      thread: { type: "continue", previous_message_id: id },
      messages: [{ role: "user", content: "And then?" }],
    };
    const counted = await post(
      {
        model: server.mainModelId,
        system: "Be brief.",
        messages: [{ role: "user", content: "Hello" }],
      },
      "/v1/messages/count_tokens",
    );
    const alone = ((await counted.json()) as { input_tokens: number }).input_tokens;
    const second = await post(continueBody);
    expect(second.status).toBe(200);
    const usage = (
      (await second.json()) as { usage: { input_tokens: number; cache_read_input_tokens: number } }
    ).usage;
    // The prompt holds the first turn, its answer and the new message.
    expect(usage.input_tokens + usage.cache_read_input_tokens).toBeGreaterThan(alone);
    const again = await post(continueBody);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { details: unknown } }).error.details).toEqual({
      error_code: "thread_already_continued",
    });
  });

  it("constrains output_config.format to its schema: messages.parse(), streamed or not", async () => {
    const format = jsonSchemaOutputFormat({
      type: "object",
      // Closed values: the random-weight model's free strings and numbers can run past max_tokens.
      properties: { city: { type: "string", enum: ["Paris", "Rome"] }, big: { type: "boolean" } },
      required: ["city", "big"],
    });
    const parsed = await anthropic.messages.parse({
      model: server.mainModelId,
      max_tokens: 60,
      ...greedy,
      messages: [{ role: "user", content: "A city as JSON." }],
      output_config: { format },
    });
    expect(parsed.stop_reason).toBe("end_turn");
    const output = parsed.parsed_output as { city: unknown; big: unknown };
    expect(["Paris", "Rome"]).toContain(output.city);
    expect(typeof output.big).toBe("boolean");

    const stream = anthropic.messages.stream({
      model: server.mainModelId,
      max_tokens: 60,
      ...greedy,
      messages: [{ role: "user", content: "A city as JSON." }],
      output_config: { format },
    });
    const final = await stream.finalMessage();
    const text = final.content.find((block) => block.type === "text");
    expect(JSON.parse(text?.type === "text" ? text.text : "")).toEqual(output);
  });

  it("refuses a format schema the grammar cannot express with a 400 naming output_config.format", async () => {
    const response = await post({
      model: server.mainModelId,
      max_tokens: 5,
      messages: [{ role: "user", content: "Hi" }],
      output_config: {
        format: { type: "json_schema", schema: { type: "object", properties: { a: { type: "color" } } } },
      },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { param: string } };
    expect(body.error.param).toBe("output_config.format");
    expect(response.headers.get("x-perch-ignored-fields")).toBeNull();
  });

  it.each([
    { type: "adaptive" },
    { type: "adaptive", display: "omitted" },
    { type: "enabled", budget_tokens: 1024, display: "summarized" },
    { type: "between_tools" },
  ])("accepts thinking %j", async (thinking) => {
    const response = await post({
      model: server.mainModelId,
      max_tokens: 3,
      thinking,
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-perch-ignored-fields")).toBeNull();
  });

  it("takes a system message between the turns", async () => {
    const reply = await anthropic.messages.create({
      model: server.mainModelId,
      max_tokens: 3,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello." },
        { role: "system", content: [{ type: "text", text: "Answer in French from now on." }] },
        { role: "user", content: "How are you?" },
      ],
    });
    expect(reply.type).toBe("message");
    const counted = await anthropic.messages.countTokens({
      model: server.mainModelId,
      messages: [
        { role: "user", content: "Hi" },
        { role: "system", content: "Answer in French from now on." },
      ],
    });
    const without = await anthropic.messages.countTokens({
      model: server.mainModelId,
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(counted.input_tokens).toBeGreaterThan(without.input_tokens);
  });

  it("answers with a request-id header the SDK reads, on success, errors and streams", async () => {
    const { data, response, request_id } = await anthropic.messages
      .create({ model: server.mainModelId, max_tokens: 2, messages: [{ role: "user", content: "Hi" }] })
      .withResponse();
    expect(data.type).toBe("message");
    expect(request_id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(response.headers.get("request-id")).toBe(request_id);

    const failure = await anthropic.messages
      .create({ model: "no-such-model", max_tokens: 2, messages: [{ role: "user", content: "Hi" }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.NotFoundError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).requestID).toMatch(/^req_/);

    const invalid = await post({ model: server.mainModelId, messages: [] });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("request-id")).toMatch(/^req_/);

    const streamed = await anthropic.messages
      .stream({ model: server.mainModelId, max_tokens: 2, messages: [{ role: "user", content: "Hi" }] })
      .withResponse();
    expect(streamed.response.headers.get("request-id")).toMatch(/^req_/);
    expect(streamed.request_id).toBe(streamed.response.headers.get("request-id"));
  });

  it("sends a ping after the first content block opens", async () => {
    const response = await post({
      model: server.mainModelId,
      max_tokens: 3,
      stream: true,
      messages: [{ role: "user", content: "Hi" }],
    });
    const events = [...(await response.text()).matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(events.slice(0, 3)).toEqual(["message_start", "content_block_start", "ping"]);
    expect(events.filter((event) => event === "ping")).toHaveLength(1);
    expect(events.at(-1)).toBe("message_stop");
  });

  it("pages GET /v1/models in Anthropic's shape (limit, after_id, before_id)", async () => {
    const all = await anthropic.models.list({ limit: 1000 });
    const ids = all.data.map((model) => model.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(all.has_more).toBe(false);

    const first = await anthropic.models.list({ limit: 1 });
    expect(first.data.map((model) => model.id)).toEqual([ids[0]]);
    expect(first.has_more).toBe(true);
    expect(first.first_id).toBe(ids[0]);
    expect(first.last_id).toBe(ids[0]);

    const next = await anthropic.models.list({ limit: 1, after_id: ids[0] });
    expect(next.data.map((model) => model.id)).toEqual([ids[1]]);
    const before = await anthropic.models.list({ limit: 5, before_id: ids[1] });
    expect(before.data.map((model) => model.id)).toEqual([ids[0]]);
    expect(before.has_more).toBe(false);

    // The SDK's auto-pagination walks every page.
    const walked: string[] = [];
    for await (const model of anthropic.models.list({ limit: 1 })) walked.push(model.id);
    expect(walked).toEqual(ids);

    const unknown = await anthropic.models.list({ after_id: "nope" }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Anthropic.BadRequestError);
  });
});
