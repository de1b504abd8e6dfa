import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const post = (path: string, body: Record<string, unknown>) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const chat = (extra: Record<string, unknown>) =>
  post("/v1/chat/completions", {
    model: server.mainModelId,
    messages: [{ role: "user", content: "hi" }],
    max_tokens: 2,
    temperature: 0,
    ...extra,
  });

describe("request fields: honoured, accepted without effect, refused, or named as ignored", () => {
  it("accepts unknown fields and names them in x-perch-ignored-fields (also on a stream)", async () => {
    const response = await chat({
      foo: 1,
      extra_body: { a: 1 },
      user: "u",
      store: false,
      service_tier: "auto",
      modalities: ["text"],
      prediction: { type: "content", content: "x" },
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "hi", refusal: null, annotations: [] },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-perch-ignored-fields")).toBe(
      "messages[].refusal, messages[].annotations, foo, extra_body",
    );
    const stream = await chat({
      stream: true,
      whatever: true,
      stream_options: { include_usage: true, x: 1 },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("x-perch-ignored-fields")).toBe("whatever, stream_options.x");
    await stream.text();
    const plain = await chat({});
    expect(plain.headers.get("x-perch-ignored-fields")).toBeNull();
  });

  it("names unknown Anthropic fields too, and accepts cache_control and metadata", async () => {
    const response = await post("/v1/messages", {
      model: server.mainModelId,
      max_tokens: 2,
      messages: [
        { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
      ],
      metadata: { user_id: "x" },
      container: "c",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-perch-ignored-fields")).toBe("container");
  });

  it("refuses fields it cannot honour with a 400 naming them", async () => {
    for (const [field, body] of [
      // OpenAI refuses top_logprobs without logprobs: true too.
      ["top_logprobs", { top_logprobs: 3 }],
      ["top_logprobs", { logprobs: false, top_logprobs: 0 }],
      ["modalities", { modalities: ["text", "audio"] }],
      [
        "functions",
        {
          functions: [{ name: "f", parameters: {} }],
          tools: [{ type: "function", function: { name: "g" } }],
        },
      ],
      ["n", { n: 9 }],
      ["logit_bias", { logit_bias: { "99999999": 5 } }],
      ["logit_bias", { logit_bias: { abc: 5 } }],
    ] as const) {
      const response = await chat(body);
      expect(response.status, field).toBe(400);
      const error = ((await response.json()) as { error: { code: string; param?: string } }).error;
      expect(error.code).toBe("invalid_request");
      expect(error.param).toBe(field);
    }
    const suffix = await post("/v1/completions", {
      model: server.mainModelId,
      prompt: "a",
      suffix: "b",
      max_tokens: 2,
    });
    expect(suffix.status).toBe(400);
    expect(((await suffix.json()) as { error: { param?: string } }).error.param).toBe("suffix");
    const echoed = await post("/v1/completions", {
      model: server.mainModelId,
      prompt: "a",
      echo: true,
      logprobs: 2,
      max_tokens: 2,
    });
    expect(echoed.status).toBe(400);
    expect(((await echoed.json()) as { error: { param?: string } }).error.param).toBe("logprobs");
  });

  it("n generates that many choices on parallel sequences, completions summed in usage", async () => {
    const response = await chat({ n: 2, max_tokens: 3 });
    const body = (await response.json()) as {
      choices: { index: number; message: { content: string } }[];
      usage: { completion_tokens: number; prompt_tokens: number };
    };
    expect(body.choices.map((choice) => choice.index)).toEqual([0, 1]);
    // Greedy: both choices are the same text.
    expect(body.choices[0]!.message.content).toBe(body.choices[1]!.message.content);
    const single = (await (await chat({ max_tokens: 3 })).json()) as typeof body;
    expect(body.usage.completion_tokens).toBe(2 * single.usage.completion_tokens);
    expect(body.usage.prompt_tokens).toBe(single.usage.prompt_tokens);

    const stream = await (await chat({ n: 2, max_tokens: 3, stream: true })).text();
    const finishes = stream
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map(
        (line) => JSON.parse(line.slice(6)) as { choices: { index: number; finish_reason: string | null }[] },
      )
      .flatMap((chunk) =>
        chunk.choices.filter((choice) => choice.finish_reason).map((choice) => choice.index),
      );
    expect(finishes.sort()).toEqual([0, 1]);
  });

  it("logit_bias changes the output: +100 on one token makes greedy decoding repeat it", async () => {
    const completion = async (extra: Record<string, unknown>) => {
      const response = await post("/v1/completions", {
        model: server.mainModelId,
        prompt: "Once upon a time",
        max_tokens: 3,
        temperature: 0,
        ...extra,
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { choices: { text: string }[] }).choices[0]!.text;
    };
    const plain = await completion({});
    const forced = await completion({ logit_bias: { "300": 100 } });
    expect(forced).not.toBe(plain);
    const piece = forced.slice(0, forced.length / 3);
    expect(piece.length).toBeGreaterThan(0);
    expect(forced).toBe(piece.repeat(3));
  });
});
