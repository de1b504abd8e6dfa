import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PerchError } from "../../../../src-main/base/PerchError.js";
import { createExternalTarget } from "../../../../src-main/evals/runner/createExternalTarget.js";
import { openAiEndpointUrl } from "../../../../src-main/upstream/openAiEndpointUrl.js";
import { resolveSampling } from "../../../../src-main/evals/runner/resolveSampling.js";
import { runBenchmark } from "../../../../src-main/evals/runner/runBenchmark.js";
import { createFakeBenchmark, fakeItems } from "./fakes.js";

interface Received {
  url: string;
  authorization?: string;
  body: Record<string, unknown>;
}

/** A tiny OpenAI-compatible server; `respond` decides each answer. */
function startFakeServer(
  respond: (body: Record<string, unknown>, res: http.ServerResponse, req: http.IncomingMessage) => void,
) {
  const received: Received[] = [];
  const closedEarly: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      received.push({ url: req.url ?? "", authorization: req.headers.authorization, body });
      res.on("close", () => {
        if (!res.writableEnded) closedEarly.push(JSON.stringify(body.messages));
      });
      respond(body, res, req);
    });
  });
  return new Promise<{
    baseUrl: string;
    received: Received[];
    closedEarly: string[];
    close: () => Promise<void>;
  }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        received,
        closedEarly,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function completion(content: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: "x",
    object: "chat.completion",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, ...extra } }],
    usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
  });
}

const request = (signal = new AbortController().signal) => ({
  requestId: "r1",
  messages: [{ role: "user" as const, content: "q0" }],
  sampling: resolveSampling("deterministic").sampling,
  maxTokens: 128,
  thinking: false,
  signal,
});

describe("createExternalTarget", () => {
  let server: Awaited<ReturnType<typeof startFakeServer>> | undefined;
  beforeEach(() => {
    server = undefined;
  });
  afterEach(async () => {
    await server?.close();
  });

  it("builds the endpoint URL from a base with or without /v1", () => {
    const url = (base: string) => openAiEndpointUrl(base, "chat/completions");
    expect(url("http://h:8080")).toBe("http://h:8080/v1/chat/completions");
    expect(url("http://h:8080/v1/")).toBe("http://h:8080/v1/chat/completions");
    expect(url("http://h/proxy")).toBe("http://h/proxy/v1/chat/completions");
    expect(openAiEndpointUrl("http://h:8080/", "completions")).toBe("http://h:8080/v1/completions");
  });

  it("sends credentials in the base URL as Basic auth and keeps them out of descriptions and errors", async () => {
    server = await startFakeServer((_body, res) => {
      res.statusCode = 500;
      res.end("boom");
    });
    const withCredentials = server.baseUrl.replace("http://", "http://user:secret@");
    const target = createExternalTarget({ base_url: withCredentials, model: "m" });
    expect(target.description).toMatchObject({ base_url: server.baseUrl });
    const error = (await target.generate(request()).catch((caught: unknown) => caught)) as PerchError;
    expect(error).toMatchObject({ code: "upstream_error", details: { status: 500, message: "boom" } });
    expect(error.message).not.toContain("secret");
    // The credentials reached the server as Basic auth, as curl would send them.
    expect(server.received[0].authorization).toBe(`Basic ${Buffer.from("user:secret").toString("base64")}`);
  });

  it("fails as upstream_error when the server takes longer than the request timeout", async () => {
    server = await startFakeServer(() => {
      // Never answers.
    });
    const target = createExternalTarget(
      { base_url: server.baseUrl, model: "m" },
      { requestTimeoutSeconds: 0.05 },
    );
    await expect(target.generate(request())).rejects.toMatchObject({ code: "upstream_error" });
  });

  it("posts a chat completion with the key, the model, greedy sampling and the thinking switch", async () => {
    server = await startFakeServer((_body, res) => res.end(completion("a0")));
    const target = createExternalTarget({
      base_url: `${server.baseUrl}/v1`,
      api_key: "sk-test",
      model: "big-model",
    });
    const response = await target.generate(request());
    expect(response).toEqual({ text: "a0", finishReason: "stop", completionTokens: 5 });
    expect(server.received[0]).toMatchObject({
      url: "/v1/chat/completions",
      authorization: "Bearer sk-test",
      body: {
        model: "big-model",
        messages: [{ role: "user", content: "q0" }],
        max_tokens: 128,
        stream: false,
        temperature: 0,
        top_p: 1,
        seed: 42,
        presence_penalty: 0,
        frequency_penalty: 0,
        chat_template_kwargs: { enable_thinking: false },
      },
    });
    // Neutral llama.cpp extensions are not sent: greedy decoding does not need them.
    expect(server.received[0].body).not.toHaveProperty("top_k");
    expect(target.description).toEqual({
      kind: "external",
      base_url: `${server.baseUrl}/v1`,
      model: "big-model",
      api_key_set: true,
    });
  });

  it("puts separately returned reasoning back as a <think> block", async () => {
    server = await startFakeServer((_body, res) => res.end(completion("B", { reasoning_content: "hmm" })));
    const target = createExternalTarget({ base_url: server.baseUrl, model: "m" });
    expect((await target.generate(request())).text).toBe("<think>hmm</think>B");
  });

  it("answers upstream_error with the server's status and message", async () => {
    server = await startFakeServer((_body, res) => {
      res.statusCode = 503;
      res.end(JSON.stringify({ error: { message: "loading model" } }));
    });
    const target = createExternalTarget({ base_url: server.baseUrl, model: "m" });
    const error = await target.generate(request()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PerchError);
    expect(error).toMatchObject({ code: "upstream_error" });
    expect((error as Error).message).toMatch(/503.*loading model/);
  });

  it("retries without extensions once a strict server refuses them, and records that", async () => {
    server = await startFakeServer((body, res) => {
      if ("chat_template_kwargs" in body) {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            error: { message: "Unrecognized request argument supplied: chat_template_kwargs" },
          }),
        );
        return;
      }
      res.end(completion("ok"));
    });
    const target = createExternalTarget({ base_url: server.baseUrl, model: "m" });
    const sampling = { temperature: 0.5, topK: 20 };
    expect(target.effectiveSampling(sampling)).toEqual({ temperature: 0.5, top_k: 20 });
    expect((await target.generate(request())).text).toBe("ok");
    expect(server.received).toHaveLength(2);
    expect(target.effectiveSampling(sampling)).toEqual({ temperature: 0.5 });
  });

  it("aborts the HTTP request when the run is cancelled", async () => {
    server = await startFakeServer(() => {
      // Never answers: a long generation.
    });
    const target = createExternalTarget({ base_url: server.baseUrl, model: "m" });
    const controller = new AbortController();
    const pending = target.generate(request(controller.signal));
    while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("cancelled by test"));
    await expect(pending).rejects.toThrow("cancelled by test");
    while (server.closedEarly.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(server.closedEarly).toHaveLength(1);
  });

  it("runs a whole benchmark against the server with refill", async () => {
    server = await startFakeServer((body, res) => {
      const question = (body.messages as Array<{ content: string }>)[0].content;
      res.end(completion(`a${question.slice(1)}`));
    });
    const { benchmark } = createFakeBenchmark();
    const target = createExternalTarget({ base_url: server.baseUrl, model: "m" });
    const result = await runBenchmark({ benchmark, items: fakeItems(6), target, batchSize: 4 });
    expect(result).toMatchObject({ status: "completed", correct: 6, thinkingUsed: false });
    expect(result.questions.map((question) => question.id)).toEqual(["q0", "q1", "q2", "q3", "q4", "q5"]);
    expect(server.received).toHaveLength(6);
  });
});
