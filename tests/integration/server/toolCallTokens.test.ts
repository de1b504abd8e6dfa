import Anthropic from "@anthropic-ai/sdk";
import type { LlamaModel } from "node-llama-cpp";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTestModel } from "../../helpers/testModels.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

/**
 * node-llama-cpp hands the tokens of a tool call to none of its callbacks; Perch counts the tokens
 * the sampler draws instead, so a turn that only calls a tool still reports the tokens it
 * generated: at least those of the arguments it wrote (OpenAI, Anthropic, Ollama, and /stats).
 */

let server: TestServer;
let model: LlamaModel;
let disposeModel: () => Promise<void>;

beforeAll(async () => {
  server = await startTestServer();
  ({ model, dispose: disposeModel } = await loadTestModel());
});
afterAll(async () => {
  await server?.close();
  await disposeModel?.();
});

const tokensOf = (text: string) => model.tokenize(text).length;

const parameters = {
  type: "object",
  properties: {
    city: { type: "string", maxLength: 12 },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    days: { type: "array", items: { type: "integer" }, maxItems: 3 },
  },
  required: ["city", "unit", "days"],
  additionalProperties: false,
};

async function generatedTokensLastMinute(): Promise<number> {
  const response = await fetch(`${server.url}/admin/api/stats`);
  const stats = (await response.json()) as {
    models: { modelId: string; generatedTokensLastMinute: number }[];
  };
  return stats.models.find((entry) => entry.modelId === server.mainModelId)?.generatedTokensLastMinute ?? 0;
}

describe("completion tokens include the tokens of tool calls", () => {
  it("OpenAI: usage.completion_tokens ≥ the tokens of the streamed arguments; /stats counts them too", async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "x", maxRetries: 0 });
    const before = await generatedTokensLastMinute();
    const stream = await openai.chat.completions.create({
      model: server.mainModelId,
      messages: [{ role: "user", content: "Weather in Paris for three days?" }],
      tools: [{ type: "function", function: { name: "get_weather", parameters } }],
      tool_choice: "required",
      parallel_tool_calls: false,
      max_tokens: 80,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    let argumentsText = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      for (const piece of chunk.choices[0]?.delta.tool_calls ?? [])
        argumentsText += piece.function?.arguments ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(JSON.parse(argumentsText)).toHaveProperty("city");
    expect(usage!.completion_tokens).toBeGreaterThanOrEqual(tokensOf(argumentsText));
    expect(usage!.completion_tokens).toBeLessThanOrEqual(80);
    expect((await generatedTokensLastMinute()) - before).toBe(usage!.completion_tokens);
  });

  it("Anthropic: usage.output_tokens ≥ the tokens of the tool_use input", async () => {
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: "x", maxRetries: 0 });
    const reply = await anthropic.messages.create({
      model: server.mainModelId,
      max_tokens: 80,
      messages: [{ role: "user", content: "Weather in Oslo for two days?" }],
      tools: [{ name: "get_weather", input_schema: parameters as Anthropic.Tool.InputSchema }],
      tool_choice: { type: "tool", name: "get_weather", disable_parallel_tool_use: true },
    });
    const use = reply.content.find((block) => block.type === "tool_use");
    if (use?.type !== "tool_use") throw new Error("no tool_use block");
    expect(reply.usage.output_tokens).toBeGreaterThanOrEqual(tokensOf(JSON.stringify(use.input)));
  });

  it("Ollama: eval_count ≥ the tokens of the call's arguments", async () => {
    const ollama = new Ollama({ host: server.url });
    const reply = await ollama.chat({
      model: `${server.mainModelId}:latest`,
      messages: [{ role: "user", content: "Weather in Rome for one day?" }],
      tools: [{ type: "function", function: { name: "get_weather", parameters } }],
      tool_choice: "required",
      options: { temperature: 0, num_predict: 80 },
    } as Parameters<typeof ollama.chat>[0] & { stream?: false });
    const call = reply.message.tool_calls![0]!;
    expect(reply.eval_count).toBeGreaterThanOrEqual(tokensOf(JSON.stringify(call.function.arguments)));
  });
});
