import { APIError } from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();

describe("OpenAI answers carry x-request-id (the SDK's _request_id)", () => {
  it("on a completion, a stream and an error, each its own", async () => {
    const reply = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "Hi" }],
      max_tokens: 2,
    });
    // Was null: no header on any /v1 answer but Anthropic's.
    expect(reply._request_id).toMatch(/^req_[0-9a-f]{24}$/);
    const stream = await perch.openai.chat.completions
      .create({
        model: perch.server.mainModelId,
        messages: [{ role: "user", content: "Hi" }],
        max_tokens: 2,
        stream: true,
      })
      .withResponse();
    for await (const chunk of stream.data) void chunk;
    expect(stream.request_id).toMatch(/^req_/);
    expect(stream.request_id).not.toBe(reply._request_id);
    const error = await perch.openai.chat.completions
      .create({ model: "no-such-model", messages: [{ role: "user", content: "Hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).requestID).toMatch(/^req_/);
  });
});

describe("Anthropic clients get request-id (the SDK's _request_id) on every /v1 answer", () => {
  it("on the models list both APIs share, equal to x-request-id, and on messages the same way", async () => {
    const client = new Anthropic({ baseURL: perch.server.url, apiKey: "unused" });
    const page = await client.models.list().withResponse();
    // Was null: the models route is shared with OpenAI and only x-request-id was set.
    expect(page.request_id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(page.response.headers.get("x-request-id")).toBe(page.request_id);
    const message = await client.messages
      .create({
        model: perch.server.mainModelId,
        max_tokens: 2,
        messages: [{ role: "user", content: "Hi" }],
      })
      .withResponse();
    expect(message.request_id).toMatch(/^req_/);
    expect(message.response.headers.get("x-request-id")).toBe(message.request_id);
    expect(message.request_id).not.toBe(page.request_id);
    // An OpenAI client on the same route gets only OpenAI's header.
    const plain = await fetch(`${perch.server.url}/v1/models`);
    expect(plain.headers.get("x-request-id")).toMatch(/^req_/);
    expect(plain.headers.get("request-id")).toBeNull();
  });
});
