import { APIError } from "openai";
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
