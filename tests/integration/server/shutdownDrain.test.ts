import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../../src-main/core/createCore.js";
import { startServer } from "../../../src-main/server/startServer.js";
import { neverEndingFormat } from "../../helpers/inferenceClient.js";
import { ensureTestModels } from "../../helpers/testModels.js";

/**
 * A server that shuts down while it answers: every generation ends in its own protocol (the
 * `openai`, `@anthropic-ai/sdk` and `ollama` clients each raise the server's error), never a stream
 * that just stops and reads as a whole answer.
 */
interface Running {
  core: Core;
  close: () => Promise<void>;
  url: string;
  model: string;
  basePath: string;
}

const opened: Running[] = [];
afterEach(async () => {
  for (const running of opened.splice(0)) {
    await running.close().catch(() => undefined);
    await running.core.close();
    fs.rmSync(running.basePath, { recursive: true, force: true });
  }
});

async function start(shutdownGraceMs: number): Promise<Running> {
  const models = await ensureTestModels();
  const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-shutdown-"));
  fs.mkdirSync(path.join(basePath, "models"));
  fs.symlinkSync(models.main, path.join(basePath, "models", path.basename(models.main)));
  const core = await createCore({ basePath, port: 0, logLevel: "warn", threads: 1 });
  const { app, url } = await startServer(core, { shutdownGraceMs });
  let closing: Promise<void> | undefined;
  const running: Running = {
    core,
    url,
    basePath,
    model: path.basename(models.main).replace(/\.gguf$/, ""),
    close: () => (closing ??= app.close()),
  };
  opened.push(running);
  return running;
}

const schema = neverEndingFormat.response_format.json_schema.schema;

/** A JSON POST to the running server. */
const post = (server: Running, route: string, body: Record<string, unknown>) =>
  fetch(`${server.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: server.model, ...body }),
  });

/** Resolves once `count` of the calls have reached their first streamed piece. */
function countdown(count: number) {
  let left = count;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return {
    all,
    one: () => {
      left -= 1;
      if (left === 0) release();
    },
  };
}

describe("shutting down while generations run", () => {
  it("ends each stream with its protocol's error and answers a waiting request 503", async () => {
    const server = await start(200);
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "x", maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: server.url, apiKey: "x", maxRetries: 0 });
    const ollama = new Ollama({ host: server.url });
    const started = countdown(4);

    const openaiStream = (async () => {
      const stream = await openai.chat.completions.create({
        model: server.model,
        messages: [{ role: "user", content: "numbers" }],
        max_tokens: 100_000,
        stream: true,
        ...neverEndingFormat,
      } as OpenAI.ChatCompletionCreateParamsStreaming);
      let text = "";
      let first = true;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        if (chunk.choices[0]?.finish_reason) return { text, finish: chunk.choices[0].finish_reason };
        if (first && text) {
          first = false;
          started.one();
        }
      }
      return { text, finish: "ended without a finish reason" };
    })();
    const anthropicStream = (async () => {
      const stream = await anthropic.messages.create({
        model: server.model,
        max_tokens: 100_000,
        messages: [{ role: "user", content: "numbers" }],
        stream: true,
        output_config: { format: { type: "json_schema", schema } },
      } as unknown as Anthropic.MessageCreateParamsStreaming);
      let first = true;
      for await (const event of stream) {
        if (event.type === "message_stop") return "message_stop";
        if (first && event.type === "content_block_delta") {
          first = false;
          started.one();
        }
      }
      return "ended without message_stop";
    })();
    const ollamaStream = (async () => {
      const stream = await ollama.chat({
        model: server.model,
        messages: [{ role: "user", content: "numbers" }],
        format: schema,
        options: { num_predict: 100_000 },
        stream: true,
      });
      let first = true;
      for await (const part of stream) {
        if (part.done) return `done: ${part.done_reason}`;
        if (first) {
          first = false;
          started.one();
        }
      }
      return "ended without done";
    })();
    const responsesStream = (async () => {
      const stream = await openai.responses.create({
        model: server.model,
        input: "numbers",
        max_output_tokens: 100_000,
        stream: true,
        text: { format: { type: "json_schema", name: "numbers", schema } },
      });
      let first = true;
      for await (const event of stream) {
        if (event.type === "response.completed" || event.type === "response.incomplete") return event.type;
        if (event.type === "error") return `error event: ${event.code}`;
        if (first && event.type === "response.output_text.delta") {
          first = false;
          started.one();
        }
      }
      return "ended without a final event";
    })();
    const outcomes = Promise.allSettled([openaiStream, anthropicStream, ollamaStream, responsesStream]);
    await Promise.race([started.all, outcomes]);
    // Not streamed, queued or generating: answered 503 when the drain cuts it.
    const plain = post(server, "/v1/chat/completions", {
      messages: [{ role: "user", content: "numbers" }],
      max_tokens: 100_000,
      ...neverEndingFormat,
    });
    // Give the plain request time to reach the scheduler before the close.
    await new Promise((resolve) => setTimeout(resolve, 100));

    await server.close();

    const [fromOpenai, fromAnthropic, fromOllama, fromResponses] = await outcomes;
    expect(fromOpenai.status).toBe("rejected");
    const openaiError = (fromOpenai as PromiseRejectedResult).reason as InstanceType<typeof OpenAI.APIError>;
    expect(openaiError).toBeInstanceOf(OpenAI.APIError);
    expect(openaiError.code).toBe("server_shutting_down");
    expect(openaiError.message).toContain("shutting down");

    expect(fromAnthropic.status).toBe("rejected");
    const anthropicError = (fromAnthropic as PromiseRejectedResult).reason as InstanceType<
      typeof Anthropic.APIError
    >;
    expect(anthropicError).toBeInstanceOf(Anthropic.APIError);
    expect(anthropicError.message).toContain("overloaded_error");
    expect(anthropicError.message).toContain("shutting down");

    expect(fromOllama.status).toBe("rejected");
    expect(String((fromOllama as PromiseRejectedResult).reason)).toContain("shutting down");

    // The Responses stream's `error` event (its SDK hands it over as an event, or raises it).
    const responsesOutcome =
      fromResponses.status === "fulfilled" ? fromResponses.value : String(fromResponses.reason);
    expect(responsesOutcome).toMatch(/server_shutting_down|shutting down/);

    const answer = await plain;
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("server_shutting_down");
  });

  it("lets a short reply finish within the grace period, whole and with its terminator", async () => {
    const server = await start(10_000);
    const response = await post(server, "/v1/chat/completions", {
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 40,
      ignore_eos: true,
      stream: true,
    });
    expect(response.status).toBe(200);
    const closed = server.close();
    const body = await response.text();
    await closed;
    expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(body).toContain('"finish_reason":"length"');
    expect(body).not.toContain("server_shutting_down");
  });

  it("refuses a generation that arrives while it drains (503), the running one still finishing", async () => {
    const server = await start(10_000);
    const long = await post(server, "/v1/chat/completions", {
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 300,
      ignore_eos: true,
      stream: true,
    });
    const closed = server.close();
    const late = await post(server, "/api/generate", { prompt: "hi", options: { num_predict: 5 } });
    expect(late.status).toBe(503);
    expect(((await late.json()) as { error: string }).error).toContain("shutting down");
    const body = await long.text();
    await closed;
    expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });
});
