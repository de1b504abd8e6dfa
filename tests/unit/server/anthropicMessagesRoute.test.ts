import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../helpers/captureLog.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { createServer } from "../../../src-main/server/createServer.js";
import { anthropicErrorShape } from "../../../src-main/server/anthropic/anthropicErrorShape.js";
import { toAnthropicModelList } from "../../../src-main/server/anthropic/anthropicModels.js";
import {
  AnthropicThreadStore,
  storedThreadAnswersLimit,
} from "../../../src-main/server/anthropic/AnthropicThreadStore.js";
import { registerAnthropicRoutes } from "../../../src-main/server/anthropic/registerAnthropicRoutes.js";
import type { GenerationRequest, GenerationResult } from "../../../src-main/scheduler/GenerationRequest.js";

const timings = {
  queueWaitMs: 0,
  ttftMs: 0,
  promptTokensPerSecond: 0,
  generationTokensPerSecond: 0,
  totalMs: 0,
};

/** A generation that writes `text` and ends as `result` says (nothing else runs). */
function fakeResult(
  result: Partial<GenerationResult> = {},
): (request: GenerationRequest) => Promise<GenerationResult> {
  return async (request) => {
    request.onPromptStart?.({ promptTokens: 5, cachedPromptTokens: 0 });
    request.onText?.(result.text ?? "hi");
    return {
      requestId: request.requestId,
      text: "hi",
      finishReason: "stop",
      usage: { promptTokens: 5, completionTokens: 1, cachedPromptTokens: 0 },
      timings,
      ...result,
    };
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(generate: (request: GenerationRequest) => Promise<GenerationResult>) {
  const { log, lines } = captureLog();
  app = await createServer({
    allowRemoteAdmin: false,
    requestLog: log,
    register: (server) => registerAnthropicRoutes(server, { generate, countPromptTokens: async () => 1 }),
  });
  const post = (body: Record<string, unknown>) =>
    app!.inject({
      method: "POST",
      url: "/v1/messages",
      payload: { model: "tiny", max_tokens: 10, messages: [{ role: "user", content: "Hi" }], ...body },
    });
  return { post, lines };
}

describe("POST /v1/messages as Anthropic answers it", () => {
  it("says model_context_window_exceeded when the context, not max_tokens, ended the answer", async () => {
    const short = await serve(
      fakeResult({
        finishReason: "length",
        usage: { promptTokens: 5, completionTokens: 4, cachedPromptTokens: 0 },
      }),
    );
    expect((await short.post({})).json()).toMatchObject({ stop_reason: "model_context_window_exceeded" });
    const streamed = (await short.post({ stream: true })).body;
    expect(streamed).toContain('"stop_reason":"model_context_window_exceeded"');
    await app!.close();

    const full = await serve(
      fakeResult({
        finishReason: "length",
        usage: { promptTokens: 5, completionTokens: 10, cachedPromptTokens: 0 },
      }),
    );
    expect((await full.post({})).json()).toMatchObject({ stop_reason: "max_tokens" });
  });

  it("gives every answer a request-id that the request log names: success, refusal, stream, stream error", async () => {
    let fail = false;
    const { post, lines } = await serve(async (request) => {
      if (fail) {
        request.onPromptStart?.({ promptTokens: 5, cachedPromptTokens: 0 });
        request.onText?.("partial");
        throw new PerchError("generation_failed", "the engine broke");
      }
      return fakeResult()(request);
    });
    const answers = [
      await post({}),
      await post({ max_tokens: 0 }),
      await post({ stream: true }),
      await post({ stream: true, model: "x" }).then(async (answer) => answer),
    ];
    fail = true;
    const broken = await post({ stream: true });
    answers.push(broken);
    const ids = answers.map((answer) => answer.headers["request-id"]);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(answers[1]!.statusCode).toBe(400);
    // A failure after the stream started is an error event of Anthropic's type for a 500.
    expect(broken.body).toContain(
      'event: error\ndata: {"type":"error","error":{"message":"the engine broke","type":"api_error"',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = lines.filter((line) => line.msg === "request").map((line) => line.request_id);
    expect(logged).toEqual(ids);
  });

  it("answers a failing generation's 500 with type api_error", async () => {
    const { post } = await serve(async () => {
      throw new PerchError("internal_error", "boom");
    });
    const answer = await post({});
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toMatchObject({
      type: "error",
      error: { type: "api_error", code: "internal_error" },
    });
  });
});

describe("Anthropic's error types", () => {
  const body = (type: string) => ({
    error: { message: "m", type, code: "internal_error" as const, param: null },
  });
  it.each([
    [500, "server_error", "api_error"],
    [507, "server_error", "api_error"],
    [503, "server_error", "overloaded_error"],
    [529, "server_error", "overloaded_error"],
    [504, "server_error", "timeout_error"],
    [413, "invalid_request_error", "request_too_large"],
    [404, "not_found_error", "not_found_error"],
    [429, "rate_limit_error", "rate_limit_error"],
    [400, "invalid_request_error", "invalid_request_error"],
  ])("status %i: %s becomes %s", (status, type, expected) => {
    expect(anthropicErrorShape(body(type), status)).toMatchObject({
      type: "error",
      error: { type: expected },
    });
  });
});

describe("Anthropic's model list pages", () => {
  const models = ["a", "b", "c", "d"].map((id) => ({ id, created: 0 }));
  const ids = (page: { data: { id: string }[] }) => page.data.map((model) => model.id);
  it("pages forward and back with has_more, first_id and last_id", () => {
    expect(toAnthropicModelList(models)).toMatchObject({ has_more: false, first_id: "a", last_id: "d" });
    const first = toAnthropicModelList(models, { limit: "2" });
    expect([ids(first), first.has_more, first.last_id]).toEqual([["a", "b"], true, "b"]);
    const last = toAnthropicModelList(models, { limit: "2", after_id: "b" });
    expect([ids(last), last.has_more]).toEqual([["c", "d"], false]);
    const back = toAnthropicModelList(models, { limit: "2", before_id: "d" });
    expect([ids(back), back.has_more, back.first_id]).toEqual([["b", "c"], true, "b"]);
    expect(ids(toAnthropicModelList(models, { before_id: "a" }))).toEqual([]);
    expect(() => toAnthropicModelList(models, { limit: "0" })).toThrow(PerchError);
    expect(() => toAnthropicModelList(models, { after_id: "a", before_id: "c" })).toThrow(PerchError);
  });
});

describe("the thread store", () => {
  const request = (thread?: object, content = "Hi") => ({
    model: "tiny",
    max_tokens: 5,
    messages: [{ role: "user" as const, content }],
    ...(thread ? { thread: thread as never } : {}),
  });
  const answer = (id: string) => ({ id, content: [{ type: "text" as const, text: `answer ${id}` }] });

  it("rebuilds the conversation on continue with the thread's system and tools", () => {
    const store = new AnthropicThreadStore();
    const created = store.open({ ...request({ type: "create" }), system: "Be brief." });
    created.keep(answer("msg_1"));
    const next = store.open(request({ type: "continue", previous_message_id: "msg_1" }, "More"));
    expect(next.body.system).toBe("Be brief.");
    expect(next.body.messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: [{ type: "text", text: "answer msg_1" }] },
      { role: "user", content: "More" },
    ]);
    // While it runs, another continue of the same answer waits its turn.
    expect(() => store.open(request({ type: "continue", previous_message_id: "msg_1" }))).toThrow(
      expect.objectContaining({ details: { error_code: "thread_continue_in_flight" } }),
    );
    // An answer that failed leaves the previous one free to continue again.
    next.release();
    const retry = store.open(request({ type: "continue", previous_message_id: "msg_1" }));
    retry.keep(answer("msg_2"));
    retry.release();
    expect(() => store.open(request({ type: "continue", previous_message_id: "msg_1" }))).toThrow(
      expect.objectContaining({ details: { error_code: "thread_already_continued" } }),
    );
    expect(() =>
      store.open({ ...request({ type: "continue", previous_message_id: "msg_2" }), system: "Other." }),
    ).toThrow(
      expect.objectContaining({ param: "system", details: { error_code: "thread_fingerprint_mismatch" } }),
    );
    expect(store.open(request()).body).toEqual(request());
  });

  it(`forgets the oldest answer past ${storedThreadAnswersLimit}`, () => {
    const store = new AnthropicThreadStore();
    for (let index = 0; index <= storedThreadAnswersLimit; index++)
      store.open(request({ type: "create" })).keep(answer(`msg_${index}`));
    expect(() => store.open(request({ type: "continue", previous_message_id: "msg_0" }))).toThrow(
      expect.objectContaining({ status: 404, details: { error_code: "thread_not_found" } }),
    );
    expect(() => store.open(request({ type: "continue", previous_message_id: "msg_1" }))).not.toThrow();
  });
});
