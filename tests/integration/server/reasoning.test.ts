import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

/**
 * Reasoning models through both APIs. The test model is given the `qwen3.5` chat format (Qwen's
 * 3.5 template opens `<think>` at the start of every answer), so everything it generates before
 * it closes the thought is reasoning; with thinking switched off the prompt carries an empty
 * `<think></think>` instead and everything is answer. Greedy, so the two APIs must agree.
 */

let server: TestServer;
let openai: OpenAI;
let anthropic: Anthropic;
const messages = [{ role: "user" as const, content: "copy this line again and then stop" }];

/** Fields Perch adds to the OpenAI shapes (the SDK's types do not declare them). */
type WithReasoning = { reasoning_content?: string };

beforeAll(async () => {
  server = await startTestServer();
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: server.url, apiKey: "not-needed", maxRetries: 0 });
  await server.putModelSettings({ chat_format: "qwen3.5", sampling: { temperature: 0 } });
});
afterAll(async () => {
  await server?.close();
});

describe("a reasoning model through the OpenAI API", () => {
  it("returns the reasoning as reasoning_content, counted in completion_tokens", async () => {
    const reply = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
    });
    const message = reply.choices[0].message as (typeof reply.choices)[0]["message"] & WithReasoning;
    expect(message.reasoning_content).toBeTruthy();
    expect(message.content).toBe("");
    expect(reply.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it("leaves the reasoning's tokens out of logprobs (they belong to no content), streamed or not", async () => {
    const reply = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
      logprobs: true,
      top_logprobs: 2,
    });
    const message = reply.choices[0].message as (typeof reply.choices)[0]["message"] & WithReasoning;
    expect(message.reasoning_content).toBeTruthy();
    expect(reply.choices[0].logprobs!.content).toEqual([]);
    const stream = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
      logprobs: true,
      stream: true,
    });
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as (WithReasoning & { content?: string | null }) | undefined;
      if (delta?.reasoning_content) expect(chunk.choices[0]!.logprobs).toBeNull();
    }
    // Thinking off: every generated token is the answer's.
    const off = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
      logprobs: true,
      chat_template_kwargs: { enable_thinking: false },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const content = off.choices[0].logprobs!.content!;
    expect(content.map((entry) => entry.token).join("")).toBe(off.choices[0].message.content);
  });

  it("switches thinking off with chat_template_kwargs.enable_thinking or reasoning_effort none", async () => {
    const on = await openai.chat.completions.create({ model: server.mainModelId, messages, max_tokens: 24 });
    const off = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
      chat_template_kwargs: { enable_thinking: false },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const offMessage = off.choices[0].message as (typeof off.choices)[0]["message"] & WithReasoning;
    expect(offMessage.reasoning_content).toBeUndefined();
    expect(offMessage.content).toBeTruthy();
    // The empty <think></think> block is part of the prompt.
    expect(off.usage!.prompt_tokens).toBeGreaterThan(on.usage!.prompt_tokens);
    const effortNone = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
      reasoning_effort: "none" as never,
    });
    expect(effortNone.choices[0].message.content).toBe(offMessage.content);
  });

  it("streams reasoning as delta.reasoning_content, equal to the non-streaming answer", async () => {
    const whole = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
    });
    const stream = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
      stream: true,
    });
    let reasoning = "";
    let content = "";
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as (typeof chunk.choices)[0]["delta"] & WithReasoning;
      reasoning += delta?.reasoning_content ?? "";
      content += delta?.content ?? "";
    }
    const message = whole.choices[0].message as (typeof whole.choices)[0]["message"] & WithReasoning;
    expect(reasoning).toBe(message.reasoning_content);
    expect(content).toBe(message.content);
  });
});

describe("a reasoning model through the Anthropic API", () => {
  it("answers a thinking block before the text block, streamed or not", async () => {
    const request = {
      model: server.mainModelId,
      max_tokens: 24,
      messages,
      thinking: { type: "enabled", budget_tokens: 1024 },
    } as Anthropic.MessageCreateParamsNonStreaming;
    const whole = await anthropic.messages.create(request);
    const openAiReply = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
    });
    // A text block when there is text: max_tokens may end the turn in its thought (no empty text
    // block, as Anthropic answers; it refuses one sent back).
    expect(whole.content.map((block) => block.type)).toEqual(
      openAiReply.choices[0].message.content ? ["thinking", "text"] : ["thinking"],
    );
    const thinking = whole.content[0].type === "thinking" ? whole.content[0].thinking : "";
    expect(thinking).toBe((openAiReply.choices[0].message as WithReasoning).reasoning_content);

    const streamed = await anthropic.messages.stream(request).finalMessage();
    expect(streamed.content).toEqual(whole.content);
  });

  it("switches thinking off with thinking.type disabled", async () => {
    const whole = await anthropic.messages.create({
      model: server.mainModelId,
      max_tokens: 24,
      messages,
      thinking: { type: "disabled" },
    } as Anthropic.MessageCreateParamsNonStreaming);
    expect(whole.content.map((block) => block.type)).toEqual(["text"]);
    const off = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
      chat_template_kwargs: { enable_thinking: false },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(whole.content[0].type === "text" && whole.content[0].text).toBe(off.choices[0].message.content);
  });
});

describe("a reasoning model through the Responses API", () => {
  it("answers a reasoning item before the message, streamed alike, and none with effort none", async () => {
    const request = { model: server.mainModelId, input: messages[0]!.content, max_output_tokens: 24 };
    const chat = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 24,
    });
    const reasoningText = (chat.choices[0].message as WithReasoning).reasoning_content;
    const whole = await openai.responses.create(request);
    const [first] = whole.output;
    if (first?.type !== "reasoning")
      throw new Error(`no reasoning item first: ${JSON.stringify(whole.output)}`);
    expect(first.content).toEqual([{ type: "reasoning_text", text: reasoningText }]);
    const stream = openai.responses.stream(request);
    let deltas = "";
    for await (const event of stream)
      if (event.type === "response.reasoning_text.delta") deltas += event.delta;
    expect(deltas).toBe(reasoningText);
    expect((await stream.finalResponse()).output[0]).toMatchObject({
      type: "reasoning",
      content: first.content,
    });
    const off = await openai.responses.create({ ...request, reasoning: { effort: "none" } });
    expect(off.output.map((item) => item.type)).toEqual(["message"]);
  });
});
