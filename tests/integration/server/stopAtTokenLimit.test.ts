import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let openai: OpenAI;
beforeAll(async () => {
  server = await startTestServer();
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "none" });
});
afterAll(async () => {
  await server?.close();
});

/**
 * A stop sequence the greedy answer starts at its very end but never completes: the answer's
 * last characters followed by text the model is not going to write. The library holds those
 * characters back while the stop may still match; when the token limit ends the answer first,
 * they are part of it (OpenAI, Anthropic and llama-server return every generated character that
 * is not a matched stop).
 */
const unfinishedStop = (text: string) => `${text.slice(-3)}\u0007never`;

describe("a stop sequence begun at the token limit", () => {
  const messages = [{ role: "user" as const, content: "Tell me a story" }];

  it("keeps the held-back text in chat answers, streamed and not", async () => {
    const plain = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 8,
      temperature: 0,
    });
    const text = plain.choices[0]!.message.content!;
    expect(plain.choices[0]!.finish_reason).toBe("length");
    expect(text.trim().length).toBeGreaterThan(3);
    const stop = unfinishedStop(text);
    const stopped = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 8,
      temperature: 0,
      stop: [stop],
    });
    expect(stopped.choices[0]).toMatchObject({ finish_reason: "length", message: { content: text } });
    const stream = await openai.chat.completions.create({
      model: server.mainModelId,
      messages,
      max_tokens: 8,
      temperature: 0,
      stop: [stop],
      stream: true,
    });
    let streamed = "";
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? "";
    expect(streamed).toBe(text);
  });

  it("keeps it in text completions and Anthropic messages", async () => {
    const prompt = "Once upon a time";
    const plain = await openai.completions.create({
      model: server.mainModelId,
      prompt,
      max_tokens: 6,
      temperature: 0,
    });
    const text = plain.choices[0]!.text;
    const stopped = await openai.completions.create({
      model: server.mainModelId,
      prompt,
      max_tokens: 6,
      temperature: 0,
      stop: [unfinishedStop(text)],
    });
    expect(stopped.choices[0]).toMatchObject({ finish_reason: "length", text });

    const anthropic = new Anthropic({ baseURL: server.url, apiKey: "none" });
    // Greedy: this SDK version leaves `temperature` out of its request types (spread untyped).
    const greedy: object = { temperature: 0 };
    const first = await anthropic.messages.create({
      model: server.mainModelId,
      messages,
      max_tokens: 8,
      ...greedy,
    });
    const answer = first.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const second = await anthropic.messages
      .stream({
        model: server.mainModelId,
        messages,
        max_tokens: 8,
        ...greedy,
        stop_sequences: [unfinishedStop(answer)],
      })
      .finalMessage();
    expect(second.stop_reason).toBe("max_tokens");
    expect(second.content.map((block) => (block.type === "text" ? block.text : "")).join("")).toBe(answer);
  });
});
