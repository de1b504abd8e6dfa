import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  conversationSchema,
  conversationViewSchema,
  replyEventSchema,
  replyStartResponseSchema,
  type ReplyEvent,
} from "../../../src-shared/contracts/chat.js";
import { createSseParser } from "../../../src-shared/contracts/createSseParser.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
type Json = any;

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** Every event of a reply's stream, until the server closes it. */
async function events(replyId: string): Promise<ReplyEvent[]> {
  const response = await fetch(`${server.url}/admin/api/chat/replies/${replyId}/stream`);
  expect(response.status).toBe(200);
  const parse = createSseParser();
  const result: ReplyEvent[] = [];
  for (const message of parse(await response.text()))
    result.push(replyEventSchema.parse(JSON.parse(message.data)));
  return result;
}

async function createConversation(patch: Record<string, unknown> = {}): Promise<string> {
  const created = await call("POST", "/admin/api/conversations", { model_id: server.mainModelId, ...patch });
  expect(created.status).toBe(201);
  return conversationSchema.parse(created.json).id;
}

describe("chat conversations", () => {
  it("offers tools: a required call streams as tool_call and is saved on the reply, arguments valid", async () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: {
            type: "object",
            properties: { city: { type: "string", maxLength: 12 }, unit: { enum: ["c", "f"] } },
            required: ["city", "unit"],
          },
        },
      },
    ];
    const id = await createConversation({
      tools: JSON.stringify(tools),
      tool_choice: "required",
      sampling: { temperature: 0, max_tokens: 48 },
    });
    const started = await call("POST", `/admin/api/conversations/${id}/replies`, {
      action: "send",
      content: "Weather in Oslo?",
    });
    expect(started.status).toBe(202);
    const stream = await events(replyStartResponseSchema.parse(started.json).reply_id);
    const calls = stream.flatMap((event) => (event.type === "tool_call" ? [event.call] : []));
    const finished = stream.at(-1);
    if (finished?.type !== "finished") throw new Error("the reply did not finish");
    expect(finished.message.finish_reason).toBe("tool_calls");
    expect(finished.message.tool_calls).toEqual(calls);
    expect(calls.length).toBeGreaterThan(0);
    for (const toolCall of calls) {
      expect(toolCall.name).toBe("get_weather");
      expect(toolCall.id).toMatch(/^call_/);
      const args = JSON.parse(toolCall.arguments) as { city: unknown; unit: unknown };
      expect(typeof args.city).toBe("string");
      expect(["c", "f"]).toContain(args.unit);
    }
    const onDisk = conversationViewSchema.parse((await call("GET", `/admin/api/conversations/${id}`)).json);
    expect(onDisk.messages.at(-1)?.tool_calls).toEqual(calls);
  });

  it("refuses tools that are not a JSON array of function tools, naming the field", async () => {
    for (const tools of [
      "not json",
      "{}",
      "[]",
      JSON.stringify([{ type: "function", function: { name: "a b" } }]),
    ]) {
      const created = await call("POST", "/admin/api/conversations", { model_id: server.mainModelId, tools });
      expect(created.status).toBe(400);
      expect(created.json.error).toMatchObject({ code: "invalid_request", param: "tools" });
    }
  });

  it("streams a reply and saves it, with its speed, in <base>/conversations/<id>.json", async () => {
    const id = await createConversation({
      system_prompt: "Be brief.",
      sampling: { temperature: 0, max_tokens: 8 },
    });
    const started = await call("POST", `/admin/api/conversations/${id}/replies`, {
      action: "send",
      content: "Hello there",
    });
    expect(started.status).toBe(202);
    const start = replyStartResponseSchema.parse(started.json);
    expect(start.conversation.title).toBe("Hello there");
    const stream = await events(start.reply_id);
    expect(stream[0]).toMatchObject({ type: "started", conversation_id: id, model_id: server.mainModelId });
    const streamed = stream.flatMap((event) => (event.type === "text" ? [event.text] : [])).join("");
    const finished = stream.at(-1);
    expect(finished?.type).toBe("finished");
    if (finished?.type !== "finished") return;
    expect(finished.message.content).toBe(streamed);
    expect(finished.message.stats?.completion_tokens).toBeGreaterThan(0);
    expect(finished.message.stats?.ttft_ms).toBeGreaterThan(0);
    const onDisk = conversationSchema.parse(
      JSON.parse(fs.readFileSync(path.join(server.basePath, "conversations", `${id}.json`), "utf8")),
    );
    expect(onDisk.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(onDisk.messages[1]).toEqual(finished.message);
    // A late subscriber gets the same reply replayed.
    expect(await events(start.reply_id)).toEqual(stream);
  });

  it("regenerates the last reply and edits a user message (dropping what followed)", async () => {
    const id = await createConversation({ sampling: { temperature: 0, max_tokens: 4 } });
    const first = replyStartResponseSchema.parse(
      (await call("POST", `/admin/api/conversations/${id}/replies`, { action: "send", content: "One" })).json,
    );
    await events(first.reply_id);
    const again = replyStartResponseSchema.parse(
      (await call("POST", `/admin/api/conversations/${id}/replies`, { action: "regenerate" })).json,
    );
    expect(again.conversation.messages.map((message) => message.role)).toEqual(["user"]);
    await events(again.reply_id);
    const userId = again.conversation.messages[0]!.id;
    const edited = replyStartResponseSchema.parse(
      (
        await call("POST", `/admin/api/conversations/${id}/replies`, {
          action: "edit",
          message_id: userId,
          content: "Two",
        })
      ).json,
    );
    expect(edited.conversation.messages).toEqual([expect.objectContaining({ id: userId, content: "Two" })]);
    await events(edited.reply_id);
    const saved = conversationViewSchema.parse((await call("GET", `/admin/api/conversations/${id}`)).json);
    expect(
      saved.messages.map((message) => [message.role, message.role === "user" ? message.content : ""]),
    ).toEqual([
      ["user", "Two"],
      ["assistant", ""],
    ]);
  });

  it("refuses to answer again with a deleted model, keeping the saved reply (regenerate and edit alike)", async () => {
    // A copy, so deleting it leaves the other tests' models alone.
    const copyId = "chat-model-to-delete";
    fs.copyFileSync(
      fs.realpathSync(path.join(server.basePath, "models", `${server.mainModelId}.gguf`)),
      path.join(server.basePath, "models", `${copyId}.gguf`),
    );
    await call("POST", "/admin/api/rescan");
    const id = await createConversation({ model_id: copyId, sampling: { temperature: 0, max_tokens: 4 } });
    const first = await call("POST", `/admin/api/conversations/${id}/replies`, {
      action: "send",
      content: "hello",
    });
    expect(first.status).toBe(202);
    await events(replyStartResponseSchema.parse(first.json).reply_id);
    const before = conversationViewSchema.parse((await call("GET", `/admin/api/conversations/${id}`)).json);
    expect(before.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect((await call("DELETE", `/admin/api/models/${copyId}`)).status).toBe(200);
    for (const request of [
      { action: "regenerate" },
      { action: "edit", message_id: before.messages[0]!.id, content: "hello again" },
      { action: "send", content: "still there?" },
    ]) {
      const refused = await call("POST", `/admin/api/conversations/${id}/replies`, request);
      expect(refused.status).toBe(404);
      expect(refused.json.error.code).toBe("model_not_found");
    }
    const after = conversationViewSchema.parse((await call("GET", `/admin/api/conversations/${id}`)).json);
    expect(after.messages).toEqual(before.messages);
  });

  it("stops a reply: it is saved as stopped with the text so far", async () => {
    const id = await createConversation({ sampling: { temperature: 1, max_tokens: 4000 } });
    const start = replyStartResponseSchema.parse(
      (await call("POST", `/admin/api/conversations/${id}/replies`, { action: "send", content: "Go on" }))
        .json,
    );
    // A second message while the first is answering is refused, not queued behind it.
    const busy = await call("POST", `/admin/api/conversations/${id}/replies`, {
      action: "send",
      content: "x",
    });
    expect(busy.status).toBe(409);
    // A page opened now (a reload) learns which reply to follow and stop.
    const opened = conversationViewSchema.parse((await call("GET", `/admin/api/conversations/${id}`)).json);
    expect(opened.running_reply).toEqual({
      reply_id: start.reply_id,
      message_id: start.message_id,
      model_id: server.mainModelId,
    });
    // Stop as soon as the first piece of text arrived (the reply is then surely running).
    const response = await fetch(`${server.url}/admin/api/chat/replies/${start.reply_id}/stream`);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parse = createSseParser();
    const seen: ReplyEvent[] = [];
    let cancelled = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const message of parse(value)) seen.push(replyEventSchema.parse(JSON.parse(message.data)));
      if (!cancelled && seen.some((event) => event.type === "text")) {
        cancelled = true;
        const cancel = await call("POST", `/admin/api/chat/replies/${start.reply_id}/cancel`);
        expect(cancel.json).toEqual({ reply_id: start.reply_id, status: "running" });
      }
    }
    const collected = Promise.resolve(seen);
    const finished = (await collected).at(-1);
    expect(finished).toMatchObject({ type: "finished", message: { finish_reason: "cancelled" } });
    const saved = conversationViewSchema.parse((await call("GET", `/admin/api/conversations/${id}`)).json);
    expect(saved.messages.at(-1)?.finish_reason).toBe("cancelled");
    expect(saved.running_reply).toBeNull();
  });

  it("constrains replies to a JSON schema", async () => {
    const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
    const id = await createConversation({
      json_schema: JSON.stringify(schema),
      sampling: { temperature: 0, max_tokens: 40 },
    });
    const start = replyStartResponseSchema.parse(
      (await call("POST", `/admin/api/conversations/${id}/replies`, { action: "send", content: "Answer" }))
        .json,
    );
    const finished = (await events(start.reply_id)).at(-1);
    if (finished?.type !== "finished") throw new Error("no finished event");
    if (finished.message.finish_reason === "stop") {
      expect(typeof JSON.parse(finished.message.content).ok).toBe("boolean");
    } else expect(finished.message.content.startsWith("{")).toBe(true);
  });

  it("lists, renames, exports as Markdown and deletes", async () => {
    const id = await createConversation({ title: "Draft" });
    const renamed = await call("PUT", `/admin/api/conversations/${id}`, { title: "Renamed chat" });
    expect(renamed.json.title).toBe("Renamed chat");
    const listing = await call("GET", "/admin/api/conversations");
    expect(listing.json.conversations).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, title: "Renamed chat", message_count: 0 })]),
    );
    const exported = await call("GET", `/admin/api/conversations/${id}/markdown`);
    expect(exported.json.markdown.startsWith("# Renamed chat\n")).toBe(true);
    expect(exported.json.filename).toBe(`Renamed-chat-${id}.md`);
    expect((await call("DELETE", `/admin/api/conversations/${id}`)).json).toEqual({
      deleted: true,
      conversation_id: id,
    });
    expect((await call("GET", `/admin/api/conversations/${id}`)).status).toBe(404);
  });

  it("refuses bad input with stable codes", async () => {
    expect((await call("GET", "/admin/api/conversations/..%2Fsettings")).json.error.code).toBe("invalid_id");
    const badSchema = await call("POST", "/admin/api/conversations", { json_schema: "{not json" });
    expect(badSchema.status).toBe(400);
    expect(badSchema.json.error.param).toBe("json_schema");
    const noModel = await createConversation({ model_id: null });
    const refused = await call("POST", `/admin/api/conversations/${noModel}/replies`, {
      action: "send",
      content: "Hi",
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.param).toBe("model_id");
    // Nothing was saved for the refused message.
    expect((await call("GET", `/admin/api/conversations/${noModel}`)).json.messages).toEqual([]);
    expect((await call("POST", "/admin/api/chat/replies/nope/cancel")).status).toBe(404);
  });
});
