import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("@langchain/openai against perch serve", () => {
  it("ChatOpenAI.bindTools returns a parsed tool call (name, args object, id)", async () => {
    const model = new ChatOpenAI({
      model: server.mainModelId,
      apiKey: "not-needed",
      configuration: { baseURL: `${server.url}/v1` },
      maxTokens: 60,
      temperature: 0,
      maxRetries: 0,
    });
    const withTools = model.bindTools(
      [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather in a city",
            parameters: {
              type: "object",
              properties: { city: { type: "string", maxLength: 8 }, days: { type: "integer" } },
              required: ["city", "days"],
            },
          },
        },
      ],
      { tool_choice: "get_weather", parallel_tool_calls: false },
    );
    const message = await withTools.invoke("Weather in Paris for two days?");
    expect(message.tool_calls).toHaveLength(1);
    const call = message.tool_calls![0]!;
    expect(call.name).toBe("get_weather");
    expect(call.id).toMatch(/^call_/);
    expect(typeof call.args.city).toBe("string");
    expect(Number.isInteger(call.args.days)).toBe(true);
    expect(message.invalid_tool_calls ?? []).toEqual([]);
  });
});
