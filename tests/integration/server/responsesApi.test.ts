import { ChatOpenAI } from "@langchain/openai";
import OpenAI from "openai";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();

const lookup = {
  type: "function" as const,
  name: "lookup_order",
  description: "Find an order",
  parameters: {
    type: "object",
    properties: { order_id: { type: "integer" }, note: { type: "string", maxLength: 6 } },
    required: ["order_id", "note"],
    additionalProperties: false,
  },
  strict: true,
};

describe("OpenAI's Responses API with the official openai SDK", () => {
  it("answers the greedy text /v1/chat/completions gives for the same conversation, with usage", async () => {
    const chat = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Tell me about the sea." },
      ],
      max_tokens: 12,
      temperature: 0,
    });
    const response = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      instructions: "Be brief.",
      input: "Tell me about the sea.",
      max_output_tokens: 12,
      temperature: 0,
    });
    expect(response.object).toBe("response");
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe(chat.choices[0]!.message.content);
    expect(response.status).toBe(chat.choices[0]!.finish_reason === "length" ? "incomplete" : "completed");
    if (response.status === "incomplete")
      expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(response.usage).toMatchObject({
      input_tokens: chat.usage!.prompt_tokens,
      output_tokens: chat.usage!.completion_tokens,
      total_tokens: chat.usage!.prompt_tokens + chat.usage!.completion_tokens,
    });
  });

  it("streams typed events in order whose final response equals the non-streamed one", async () => {
    const request = {
      model: perch.server.mainModelId,
      input: [
        { role: "user" as const, content: [{ type: "input_text" as const, text: "Count the waves." }] },
      ],
      max_output_tokens: 10,
      temperature: 0,
    };
    const whole = await perch.openai.responses.create(request);
    const stream = perch.openai.responses.stream(request);
    const types: string[] = [];
    const numbers: number[] = [];
    let deltas = "";
    let last: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      numbers.push(event.sequence_number);
      if (event.type === "response.output_text.delta") deltas += event.delta;
      if (event.type === "response.completed" || event.type === "response.incomplete") last = event.response;
    }
    const final = await stream.finalResponse();
    expect(types.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(types.slice(-4)).toEqual([
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      whole.status === "incomplete" ? "response.incomplete" : "response.completed",
    ]);
    expect(numbers).toEqual(numbers.map((_, index) => index));
    expect(deltas).toBe(whole.output_text);
    // The SDK's stream helper adds no output_text (it does only when it parses): read the output.
    const finalText = final.output.flatMap((item) =>
      item.type === "message"
        ? item.content.map((part) => (part.type === "output_text" ? part.text : ""))
        : [],
    );
    expect(finalText.join("")).toBe(whole.output_text);
    // The last event carries the whole response (the SDK's snapshot takes it on completed only).
    expect(last).toMatchObject({ status: whole.status, incomplete_details: whole.incomplete_details });
    expect(last!.usage).toMatchObject({
      input_tokens: whole.usage!.input_tokens,
      output_tokens: whole.usage!.output_tokens,
    });
  });

  it("makes a forced function call, takes its function_call_output, and continues a stored response", async () => {
    const first = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      input: "Where is order 3?",
      tools: [lookup],
      tool_choice: "required",
      parallel_tool_calls: false,
      max_output_tokens: 80,
      temperature: 0,
    });
    expect(first.status).toBe("completed");
    const calls = first.output.filter((item) => item.type === "function_call");
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    if (call.type !== "function_call") throw new Error("not a call");
    expect(call.name).toBe("lookup_order");
    expect(call.id).toMatch(/^fc_/);
    const args = JSON.parse(call.arguments) as { order_id: unknown; note: string };
    expect(Number.isInteger(args.order_id)).toBe(true);
    // Streamed alike: the arguments assemble from their deltas.
    const streamed = perch.openai.responses.stream({
      model: perch.server.mainModelId,
      input: "Where is order 3?",
      tools: [lookup],
      tool_choice: { type: "function", name: "lookup_order" },
      parallel_tool_calls: false,
      max_output_tokens: 80,
      temperature: 0,
    });
    let argumentDeltas = "";
    const doneEvents: { name: string; arguments: string }[] = [];
    for await (const event of streamed) {
      if (event.type === "response.function_call_arguments.delta") argumentDeltas += event.delta;
      // The SDK types `name` as required here: clients dispatch the tool from this event.
      if (event.type === "response.function_call_arguments.done")
        doneEvents.push({ name: event.name, arguments: event.arguments });
    }
    expect(doneEvents).toEqual([{ name: "lookup_order", arguments: argumentDeltas }]);
    const streamedCall = (await streamed.finalResponse()).output.find(
      (item) => item.type === "function_call",
    );
    if (streamedCall?.type !== "function_call") throw new Error("no streamed call");
    expect(streamedCall.arguments).toBe(argumentDeltas);
    expect(streamedCall.arguments).toBe(call.arguments);

    // The result, continuing the stored response: the same as sending the whole conversation.
    const output = { type: "function_call_output" as const, call_id: call.call_id, output: "shipped" };
    const continued = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      previous_response_id: first.id,
      input: [output],
      tools: [lookup],
      max_output_tokens: 8,
      temperature: 0,
    });
    const resent = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      input: [
        { role: "user", content: "Where is order 3?" },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        output,
      ],
      tools: [lookup],
      max_output_tokens: 8,
      temperature: 0,
      store: false,
    });
    expect(continued.previous_response_id).toBe(first.id);
    expect(continued.output_text).toBe(resent.output_text);
    expect(continued.usage!.input_tokens).toBe(resent.usage!.input_tokens);

    const retrieved = await perch.openai.responses.retrieve(first.id);
    expect(retrieved.output).toEqual(first.output);
    await perch.openai.responses.delete(first.id);
    const gone = await perch.openai.responses.retrieve(first.id).catch((caught: unknown) => caught);
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
    // A response stored with store: false is not kept.
    expect(
      await perch.openai.responses.retrieve(resent.id).catch((caught: unknown) => caught),
    ).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("continues a function call max_output_tokens cut (arguments not JSON), stored or sent back", async () => {
    const weather = {
      type: "function" as const,
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      },
      strict: false,
    };
    const first = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      input: "Weather in Paris?",
      tools: [weather],
      tool_choice: "required",
      max_output_tokens: 8,
      temperature: 0,
    });
    expect(first.status).toBe("incomplete");
    const call = first.output.find((item) => item.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no call");
    expect(call.status).toBe("incomplete");
    expect(() => JSON.parse(call.arguments) as unknown).toThrow();
    const output = { type: "function_call_output" as const, call_id: call.call_id, output: "sunny" };
    const continued = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      previous_response_id: first.id,
      input: [output],
      tools: [weather],
      max_output_tokens: 8,
      temperature: 0,
    });
    const resent = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      input: [
        { role: "user", content: "Weather in Paris?" },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        output,
      ],
      tools: [weather],
      max_output_tokens: 8,
      temperature: 0,
      store: false,
    });
    expect(continued.output_text).toBe(resent.output_text);
    expect(continued.usage!.input_tokens).toBe(resent.usage!.input_tokens);
  });

  it("lists a stored response's input items (the conversation it continued, then its input), paged", async () => {
    const first = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      input: [{ role: "user", content: "Where is order 3?" }],
      tools: [lookup],
      tool_choice: "required",
      parallel_tool_calls: false,
      max_output_tokens: 80,
      temperature: 0,
    });
    const call = first.output.find((item) => item.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no call");
    const second = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: call.call_id, output: "shipped" }],
      tools: [lookup],
      max_output_tokens: 4,
    });
    // Newest first, as OpenAI lists them: this input, the call the first response made, its input.
    const page = await perch.openai.responses.inputItems.list(second.id);
    expect(page.data.map((item) => item.type)).toEqual(["function_call_output", "function_call", "message"]);
    expect(page.has_more).toBe(false);
    expect(page.data[1]).toEqual(call);
    expect(page.data[0]).toMatchObject({ call_id: call.call_id, output: "shipped", status: "completed" });
    expect(page.data[0]!.id).toMatch(/^fco_/);
    expect(page.data[2]).toMatchObject({
      role: "user",
      status: "completed",
      content: [{ type: "input_text", text: "Where is order 3?" }],
    });
    expect(page.data[2]!.id).toMatch(/^msg_/);
    // Paged in order: limit, after, has_more; the SDK's iterator walks the pages.
    const firstPage = await perch.openai.responses.inputItems.list(second.id, { order: "asc", limit: 2 });
    expect(firstPage.data.map((item) => item.id)).toEqual([page.data[2]!.id, page.data[1]!.id]);
    expect(firstPage.has_more).toBe(true);
    const raw = (await fetch(
      `${perch.server.url}/v1/responses/${second.id}/input_items?order=asc&limit=2&after=${page.data[1]!.id}`,
    ).then((response) => response.json())) as Record<string, unknown>;
    expect(raw).toEqual({
      object: "list",
      data: [page.data[0]],
      first_id: page.data[0]!.id,
      last_id: page.data[0]!.id,
      has_more: false,
    });
    const walked: string[] = [];
    for await (const item of perch.openai.responses.inputItems.list(second.id, { order: "asc", limit: 1 }))
      walked.push(item.id!);
    expect(walked).toEqual(page.data.map((item) => item.id).reverse());
    // The first response lists its own input only.
    expect((await perch.openai.responses.inputItems.list(first.id)).data).toEqual([page.data[2]]);
    const unknown = await perch.openai.responses.inputItems
      .list("resp_nope")
      .catch((caught: unknown) => caught);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    const badAfter = await perch.openai.responses.inputItems
      .list(second.id, { after: "msg_nope" })
      .catch((caught: unknown) => caught);
    expect(badAfter).toBeInstanceOf(OpenAI.BadRequestError);
    expect((badAfter as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("after");
  });

  it("constrains the text to a JSON schema (text.format)", async () => {
    const schema = {
      type: "object",
      properties: { answer: { type: "string", enum: ["yes", "no"] }, n: { type: "integer" } },
      required: ["answer", "n"],
      additionalProperties: false,
    };
    const { data: response, response: raw } = await perch.openai.responses
      .create({
        model: perch.server.mainModelId,
        input: "Yes or no?",
        text: { format: { type: "json_schema", name: "verdict", schema, strict: true } },
        tools: [
          {
            ...lookup,
            parameters: {
              ...lookup.parameters,
              minProperties: 1,
              properties: { order_id: { type: "integer", minimum: 1 }, note: { type: "string" } },
            },
          },
        ],
        tool_choice: "none",
        max_output_tokens: 60,
        temperature: 0,
      })
      .withResponse();
    // Keywords the grammar cannot enforce, named as this request spells them.
    expect(raw.headers.get("x-perch-ignored-fields")).toBe("tools[0].parameters.properties.order_id.minimum");
    expect(response.status).toBe("completed");
    const parsed = z.fromJSONSchema(schema as never).safeParse(JSON.parse(response.output_text));
    expect(parsed.success).toBe(true);
  });

  it("refuses what it cannot answer in OpenAI's error shape, and keeps serving", async () => {
    const refused = async (body: Record<string, unknown>, kind: new (...args: never[]) => Error) => {
      const error = await perch.openai.responses
        .create({ model: perch.server.mainModelId, max_output_tokens: 4, input: "x", ...body } as never)
        .catch((caught: unknown) => caught);
      expect(error, JSON.stringify(body)).toBeInstanceOf(kind);
      return (error as InstanceType<typeof OpenAI.APIError>).error as { param?: string; message: string };
    };
    await refused({ model: "nope" }, OpenAI.NotFoundError);
    await refused({ model: "nope", stream: true }, OpenAI.NotFoundError);
    expect((await refused({ previous_response_id: "resp_none" }, OpenAI.NotFoundError)).param).toBe(
      "previous_response_id",
    );
    await refused({ temperature: "hot" }, OpenAI.BadRequestError);
    expect((await refused({ tools: [{ type: "web_search" }] }, OpenAI.BadRequestError)).message).toMatch(
      /function tools/,
    );
    expect(
      (
        await refused(
          { input: [{ role: "user", content: [{ type: "input_image", image_url: "x" }] }] },
          OpenAI.BadRequestError,
        )
      ).message,
    ).toMatch(/not supported/);
    // Were answered without that history, template or logprobs (a header said they were ignored).
    expect((await refused({ conversation: "conv_123" }, OpenAI.BadRequestError)).param).toBe("conversation");
    expect((await refused({ prompt: { id: "pmpt_1" } }, OpenAI.BadRequestError)).param).toBe("prompt");
    expect(
      (await refused({ include: ["message.output_text.logprobs"] }, OpenAI.BadRequestError)).message,
    ).toMatch(/logprobs are not offered/);
    const after = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      input: "x",
      max_output_tokens: 3,
    });
    expect(after.output_text).toBeTypeOf("string");
  });

  it("stops generating when a streaming client goes away", async () => {
    const controller = new AbortController();
    const stream = await perch.openai.responses.create(
      {
        model: perch.server.mainModelId,
        input: "Tell me about the sea.",
        max_output_tokens: 4000,
        stream: true,
      },
      { signal: controller.signal },
    );
    let deltas = 0;
    try {
      for await (const event of stream) {
        if (event.type === "response.output_text.delta" && ++deltas === 3) controller.abort();
      }
    } catch (error) {
      // The SDK rejects the iteration it aborted.
      if (deltas < 3) throw error;
    }
    expect(deltas).toBe(3);
    const next = await perch.openai.responses.create({
      model: perch.server.mainModelId,
      input: "x",
      max_output_tokens: 3,
    });
    expect(next.status).toBeDefined();
  });
});

describe("LangChain's ChatOpenAI on the Responses API", () => {
  const model = () =>
    new ChatOpenAI({
      model: perch.server.mainModelId,
      apiKey: "not-needed",
      configuration: { baseURL: `${perch.server.url}/v1` },
      useResponsesApi: true,
      temperature: 0,
      maxTokens: 80,
      maxRetries: 0,
    });

  it("invokes and streams the same text, and binds a forced tool", async () => {
    const invoked = await model().invoke("Tell me about the sea.");
    let streamed = "";
    for await (const chunk of await model().stream("Tell me about the sea.")) {
      streamed += typeof chunk.content === "string" ? chunk.content : chunk.text;
    }
    expect(invoked.text.length).toBeGreaterThan(0);
    expect(streamed).toBe(invoked.text);
    const withTool = model().bindTools(
      [
        {
          type: "function",
          function: { name: lookup.name, description: lookup.description, parameters: lookup.parameters },
        },
      ],
      {
        // LangChain forwards a named tool choice on this API (it drops "required").
        tool_choice: "lookup_order",
      },
    );
    const called = await withTool.invoke("Where is order 3?");
    expect(called.tool_calls?.[0]?.name).toBe("lookup_order");
    expect(Number.isInteger((called.tool_calls![0]!.args as { order_id: unknown }).order_id)).toBe(true);
  });
});

describe("Responses API errors", () => {
  it("name this request's own fields (input, text.format), not the chat request it maps to", async () => {
    const post = (body: object) =>
      fetch(`${perch.server.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: perch.server.mainModelId, ...body }),
      }).then(async (response) => ({
        status: response.status,
        error: ((await response.json()) as { error: { param: string | null; message: string } }).error,
      }));
    const empty = await post({ input: [] });
    expect(empty.status).toBe(400);
    expect(empty.error.param).toBe("input");
    expect(empty.error.message).not.toContain("messages");
    const badFormat = await post({
      input: "x",
      text: {
        format: {
          type: "json_schema",
          name: "f",
          schema: { type: "object", properties: { a: { type: "tuple" } } },
        },
      },
    });
    expect(badFormat.status).toBe(400);
    expect(badFormat.error.param).toBe("text.format");
    expect(badFormat.error.message).not.toContain("response_format");
    // An item's field by the item's own index and name, not the chat message it maps to.
    const badName = await post({
      instructions: "Be brief.",
      input: [
        { role: "user", content: "x" },
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" },
        { type: "function_call", call_id: "c2", name: "get weather", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "sunny" },
      ],
    });
    expect(badName.status).toBe(400);
    expect(badName.error.param).toBe("input.2.name");
    expect(badName.error.message).toContain("'input.2.name'");
    // An earlier output's refusal part, sent back with the conversation, is taken as its text.
    const refused = await fetch(`${perch.server.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: perch.server.mainModelId,
        max_output_tokens: 2,
        input: [
          { role: "user", content: "hi" },
          { role: "assistant", content: [{ type: "refusal", refusal: "I cannot" }] },
          { role: "user", content: "again" },
        ],
      }),
    });
    expect(refused.status).toBe(200);
  });

  it("name this request's fields streamed too (the SDK's stream: true), as they are not streamed", async () => {
    const errorOf = async (body: object) => {
      const response = await fetch(`${perch.server.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: perch.server.mainModelId, max_output_tokens: 2, ...body }),
      });
      const error = ((await response.json()) as { error: { code: string; param: string | null } }).error;
      return { status: response.status, code: error.code, param: error.param };
    };
    // An output for a call the conversation never made, and a prompt longer than the context:
    // found once the prompt is built, on the streamed path as on the other.
    const orphan = { input: [{ type: "function_call_output", call_id: "call_nope", output: "x" }] };
    const tooLong = { input: "lorem ipsum dolor sit amet ".repeat(2000) };
    for (const body of [orphan, tooLong]) {
      const whole = await errorOf(body);
      expect(whole.param).toBe("input");
      expect(await errorOf({ ...body, stream: true })).toEqual(whole);
    }
  });
});
