import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();

const weather = {
  type: "function" as const,
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
      additionalProperties: false,
    },
  },
};
const clock = {
  type: "function" as const,
  function: { name: "get_time", description: "The time now", parameters: { type: "object", properties: {} } },
};

describe("OpenAI tool calling with the official openai SDK", () => {
  it("forces a named tool call: call_ id, the name, arguments that parse to the schema, finish_reason tool_calls", async () => {
    const reply = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [clock, weather],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      parallel_tool_calls: false,
      max_tokens: 60,
      temperature: 0,
    });
    const choice = reply.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const call = choice.message.tool_calls![0]!;
    expect(call.type).toBe("function");
    expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    if (call.type !== "function") throw new Error("not a function call");
    expect(call.function.name).toBe("get_weather");
    const args = JSON.parse(call.function.arguments) as { city: unknown; unit: unknown };
    expect(Object.keys(args).sort()).toEqual(["city", "unit"]);
    expect(typeof args.city).toBe("string");
    expect((args.city as string).length).toBeLessThanOrEqual(8);
    expect(["celsius", "fahrenheit"]).toContain(args.unit);
  });

  it("streams delta.tool_calls that accumulate (index, id, name, argument fragments) to the same shape", async () => {
    const stream = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      tools: [weather],
      tool_choice: "required",
      parallel_tool_calls: false,
      max_tokens: 60,
      temperature: 0,
      stream: true,
    });
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | null = null;
    let firstPieces = 0;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (!choice) continue;
      for (const piece of choice.delta.tool_calls ?? []) {
        const call = (calls[piece.index] ??= { arguments: "" });
        if (piece.id) {
          firstPieces += 1;
          call.id = piece.id;
          expect(piece.type).toBe("function");
        }
        if (piece.function?.name) call.name = piece.function.name;
        call.arguments += piece.function?.arguments ?? "";
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    expect(finish).toBe("tool_calls");
    expect(firstPieces).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.id).toMatch(/^call_/);
    expect(calls[0]!.name).toBe("get_weather");
    const args = JSON.parse(calls[0]!.arguments) as { unit: unknown };
    expect(["celsius", "fahrenheit"]).toContain(args.unit);
  });

  it("answers a call's arguments as the text the stream sent, also for a call max_tokens cut off", async () => {
    const streamed = async (request: Omit<OpenAI.ChatCompletionCreateParamsNonStreaming, "stream">) => {
      const runner = perch.openai.chat.completions.stream(request);
      return (await runner.finalChatCompletion()).choices[0]!;
    };
    const wide = {
      type: "function" as const,
      function: {
        name: "record",
        parameters: {
          type: "object",
          properties: { n: { type: "number" }, note: { type: "string", maxLength: 30 } },
          required: ["n", "note"],
        },
      },
    };
    for (const maxTokens of [8, 14, 120]) {
      const request = {
        model: perch.server.mainModelId,
        messages: [{ role: "user" as const, content: "Record it." }],
        tools: [wide],
        tool_choice: "required" as const,
        parallel_tool_calls: false,
        max_tokens: maxTokens,
        temperature: 0.9,
        seed: 11,
      };
      const whole = (await perch.openai.chat.completions.create(request)).choices[0]!;
      const stream = await streamed(request);
      const cut = maxTokens < 120;
      expect(whole.finish_reason).toBe(cut ? "length" : "tool_calls");
      expect(stream.finish_reason).toBe(whole.finish_reason);
      expect(whole.message.content).toBeNull();
      const [call] = whole.message.tool_calls ?? [];
      if (call?.type !== "function") throw new Error(`no function call at max_tokens ${maxTokens}`);
      expect(call.function.name).toBe("record");
      const [streamedCall] = stream.message.tool_calls ?? [];
      if (streamedCall?.type !== "function") throw new Error("no streamed call");
      // Byte for byte what the stream sent: not parsed and serialized again.
      expect(call.function.arguments).toBe(streamedCall.function.arguments);
      if (cut) expect(() => JSON.parse(call.function.arguments) as unknown).toThrow();
      else expect(Object.keys(JSON.parse(call.function.arguments) as object).sort()).toEqual(["n", "note"]);
    }
  });

  it("takes back a call whose arguments are not JSON (one max_tokens cut), as OpenAI takes an opaque string", async () => {
    const cut = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weather],
      tool_choice: "required",
      max_tokens: 10,
      temperature: 0,
    });
    expect(cut.choices[0]!.finish_reason).toBe("length");
    const call = cut.choices[0]!.message.tool_calls?.[0];
    if (call?.type !== "function") throw new Error("no call");
    expect(() => JSON.parse(call.function.arguments) as unknown).toThrow();
    // Perch's own answer sent back, then a hand-written history call and a legacy function_call.
    const replayed = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [
        { role: "user", content: "Weather in Paris?" },
        cut.choices[0]!.message,
        { role: "tool", tool_call_id: call.id, content: "sunny" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_x", type: "function", function: { name: "get_weather", arguments: "city=Rome" } },
          ],
        },
        { role: "tool", tool_call_id: "call_x", content: "rain" },
      ],
      tools: [weather],
      max_tokens: 4,
    });
    expect(replayed.choices).toHaveLength(1);
    const legacy = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":' } },
        { role: "function", name: "get_weather", content: "sunny" },
      ],
      functions: [weather.function],
      max_tokens: 4,
    });
    expect(legacy.choices).toHaveLength(1);
  });

  it("the SDK's stream helper accumulates the streamed call into finalChatCompletion()", async () => {
    const runner = perch.openai.chat.completions.stream({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "What time is it?" }],
      tools: [clock],
      tool_choice: "required",
      parallel_tool_calls: false,
      max_tokens: 30,
      temperature: 0,
    });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0]!.message.tool_calls![0]!;
    if (call.type !== "function") throw new Error("not a function call");
    expect(call.function.name).toBe("get_time");
    expect(JSON.parse(call.function.arguments)).toEqual({});
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("runs a full tool loop: call → tool message → a final text answer", async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: "user", content: "Weather in Rome?" },
    ];
    const first = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages,
      tools: [weather],
      tool_choice: "required",
      parallel_tool_calls: false,
      max_tokens: 60,
      temperature: 0,
    });
    const assistant = first.choices[0]!.message;
    const call = assistant.tool_calls![0]!;
    messages.push(assistant, { role: "tool", tool_call_id: call.id, content: '{"temperature": 21}' });
    const second = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages,
      tools: [weather],
      tool_choice: "none",
      max_tokens: 6,
      temperature: 0,
    });
    expect(["stop", "length"]).toContain(second.choices[0]!.finish_reason);
    expect(typeof second.choices[0]!.message.content).toBe("string");
    expect(second.choices[0]!.message.tool_calls).toBeUndefined();
    // The call and its result reached the prompt (their rendering is checked in tests/unit/tools).
    const baseline = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [messages[0]!],
      tool_choice: "none",
      tools: [weather],
      max_tokens: 1,
    });
    expect(second.usage!.prompt_tokens).toBeGreaterThan(baseline.usage!.prompt_tokens + 10);
  });

  it("runTools calls the function the model chose and hands the result back", async () => {
    const seen: unknown[] = [];
    const runner = perch.openai.chat.completions.runTools({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "Weather in Lima?" }],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      max_tokens: 60,
      temperature: 0,
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: weather.function.description,
            parameters: weather.function.parameters,
            parse: (text: string) => JSON.parse(text) as { city: string; unit: string },
            function: (args: { city: string; unit: string }) => {
              seen.push(args);
              return { temperature: 18 };
            },
          },
        },
      ],
    });
    await runner.done();
    expect(seen).toHaveLength(1);
    expect(["celsius", "fahrenheit"]).toContain((seen[0] as { unit: string }).unit);
    const toolMessage = runner.messages.find((message) => message.role === "tool");
    expect(toolMessage).toBeDefined();
  });

  it("auto lets the model answer in text: finish_reason stop or length, no tool_calls", async () => {
    const reply = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "Hello" }],
      tools: [weather],
      max_tokens: 4,
      temperature: 0,
    });
    expect(["stop", "length", "tool_calls"]).toContain(reply.choices[0]!.finish_reason);
    if (reply.choices[0]!.finish_reason !== "tool_calls")
      expect(reply.choices[0]!.message.tool_calls).toBeUndefined();
  });

  it("serves legacy functions/function_call: message.function_call, finish_reason function_call, function results", async () => {
    const reply = (await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "Weather in Bern?" }],
      functions: [weather.function],
      function_call: { name: "get_weather" },
      max_tokens: 60,
      temperature: 0,
    })) as OpenAI.Chat.ChatCompletion;
    const choice = reply.choices[0]!;
    expect(choice.finish_reason).toBe("function_call");
    expect(choice.message.tool_calls).toBeUndefined();
    expect(choice.message.function_call?.name).toBe("get_weather");
    const args = JSON.parse(choice.message.function_call!.arguments) as { unit: unknown };
    expect(["celsius", "fahrenheit"]).toContain(args.unit);
    const next = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [
        { role: "user", content: "Weather in Bern?" },
        { role: "assistant", content: null, function_call: choice.message.function_call! },
        { role: "function", name: "get_weather", content: "cold" },
      ],
      functions: [weather.function],
      function_call: "none",
      max_tokens: 3,
    });
    expect(["stop", "length"]).toContain(next.choices[0]!.finish_reason);
  });

  it("names legacy functions / function_call, not tools / tool_choice, in their errors", async () => {
    const error = await perch.openai.chat.completions
      .create({
        model: perch.server.mainModelId,
        messages: [{ role: "user", content: "x" }],
        functions: [clock.function],
        function_call: { name: "missing" },
        max_tokens: 2,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const { param, message } = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(param).toBe("function_call");
    expect(message).toMatch(/function_call names 'missing', which is not among the functions/);
    const twice = await perch.openai.chat.completions
      .create({
        model: perch.server.mainModelId,
        messages: [{ role: "user", content: "x" }],
        functions: [clock.function, clock.function],
        max_tokens: 2,
      })
      .catch((caught: unknown) => caught);
    expect((twice as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("functions");
  });

  it("refuses a tool message that answers no call, with the message index", async () => {
    const error = await perch.openai.chat.completions
      .create({
        model: perch.server.mainModelId,
        messages: [
          { role: "user", content: "x" },
          { role: "tool", tool_call_id: "call_nope", content: "1" },
        ],
        max_tokens: 2,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      code: "invalid_request",
    });
  });

  it("holds arguments to a required name without a property and to object and array enum members", async () => {
    const members = [{ a: 1 }, [1, 2], 's"q', []];
    const cases = [
      {
        // A required member with no property schema: what additionalProperties says, else any value.
        parameters: {
          type: "object",
          properties: { a: { type: "integer" } },
          required: ["a", "zz", "yy"],
          additionalProperties: { type: "boolean" },
        },
        check: (args: Record<string, unknown>) => {
          expect(Number.isInteger(args.a)).toBe(true);
          expect(typeof args.zz).toBe("boolean");
          expect(typeof args.yy).toBe("boolean");
        },
      },
      {
        parameters: { type: "object", properties: { a: { type: "integer" } }, required: ["a", "zz"] },
        check: (args: Record<string, unknown>) => expect(Object.keys(args)).toContain("zz"),
      },
      {
        parameters: {
          type: "object",
          properties: { e: { enum: members }, c: { const: { deep: [true, null] } } },
          required: ["e", "c"],
        },
        check: (args: Record<string, unknown>) => {
          expect(members).toContainEqual(args.e);
          expect(args.c).toEqual({ deep: [true, null] });
        },
      },
    ];
    for (const { parameters, check } of cases) {
      for (const seed of [1, 2, 3]) {
        const reply = await perch.openai.chat.completions.create({
          model: perch.server.mainModelId,
          messages: [{ role: "user", content: "Call it." }],
          tools: [{ type: "function", function: { name: "f", parameters } }],
          tool_choice: "required",
          parallel_tool_calls: false,
          max_tokens: 200,
          temperature: 1,
          seed,
        });
        const call = reply.choices[0]!.message.tool_calls?.[0];
        if (call?.type !== "function") throw new Error("no call");
        check(JSON.parse(call.function.arguments) as Record<string, unknown>);
      }
    }
    // response_format reads schemas alike.
    for (const seed of [4, 5]) {
      const format = await perch.openai.chat.completions.create({
        model: perch.server.mainModelId,
        messages: [{ role: "user", content: "JSON" }],
        response_format: { type: "json_schema", json_schema: { name: "e", schema: cases[2]!.parameters } },
        max_tokens: 200,
        temperature: 1,
        seed,
      });
      cases[2]!.check(JSON.parse(format.choices[0]!.message.content!) as Record<string, unknown>);
    }
  });
});
