import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  ollamaChatRequestSchema,
  ollamaGenerateRequestSchema,
  type OllamaChatRequest,
  type OllamaGenerateRequest,
} from "../../../src-shared/contracts/ollama.js";
import { PerchError } from "../../base/PerchError.js";
import type { ChatMessage, GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";
import { abortOnDisconnect } from "../abortOnDisconnect.js";
import { parseWith } from "../parseWith.js";
import { noteUsage } from "../requestUsage.js";
import { NdjsonStream } from "./NdjsonStream.js";
import type { OllamaRouteDeps } from "./OllamaRouteDeps.js";
import { ignoredOllamaFields, ollamaGenerationFields } from "./ollamaGenerationFields.js";
import { parseKeepAlive } from "./parseKeepAlive.js";
import { resolveOllamaModel } from "./resolveOllamaModel.js";

const ns = (ms: number) => (Number.isFinite(ms) ? Math.max(0, Math.round(ms * 1e6)) : 0);

/** Ollama's closing statistics (nanoseconds), from Perch's usage and timings. */
function doneFields(result: GenerationResult) {
  const { timings, usage } = result;
  return {
    done: true as const,
    done_reason: result.finishReason === "length" ? "length" : "stop",
    total_duration: ns(timings.totalMs),
    load_duration: 0,
    prompt_eval_count: usage.promptTokens,
    prompt_eval_duration: ns(timings.ttftMs),
    eval_count: usage.completionTokens,
    eval_duration: ns(timings.totalMs - timings.ttftMs),
  };
}

function refuse(param: string, message: string): never {
  throw new PerchError("invalid_request", message, { param });
}

/** Chat messages in the scheduler's shape; what Perch cannot honour is refused by name. */
function toMessages(body: OllamaChatRequest): ChatMessage[] {
  if (body.tools && body.tools.length > 0) {
    refuse("tools", "tools are not supported by this Perch build yet; send the request without 'tools'.");
  }
  return body.messages.map((message, index) => {
    if (message.images && message.images.length > 0) {
      refuse(`messages.${index}.images`, "images are not supported: Perch serves text models only.");
    }
    if (message.tool_calls && message.tool_calls.length > 0) {
      refuse(`messages.${index}.tool_calls`, "tool_calls are not supported by this Perch build yet.");
    }
    // A tool's answer goes back as user text, as on /v1/chat/completions.
    return { role: message.role === "tool" ? "user" : message.role, content: message.content };
  });
}

function checkGenerate(body: OllamaGenerateRequest): void {
  if (body.images && body.images.length > 0)
    refuse("images", "images are not supported: Perch serves text models only.");
  if (body.suffix)
    refuse("suffix", "suffix (fill-in-the-middle) is not supported; send the prompt without it.");
  if (body.template) refuse("template", "a custom template is not supported; Perch uses the model's own.");
  if (body.context && body.context.length > 0) {
    refuse("context", "context is not supported; send the whole conversation to /api/chat instead.");
  }
}

const logprobsRefusal = (body: Record<string, unknown>) => {
  if (body.logprobs === true) refuse("logprobs", "logprobs are not supported by Perch.");
};

/** `POST /api/chat` and `POST /api/generate`: NDJSON streaming by default, one object with `stream: false`. */
export function registerOllamaGenerationRoutes(app: FastifyInstance, deps: OllamaRouteDeps): void {
  app.post("/chat", async (request, reply) => {
    const body = parseWith(ollamaChatRequestSchema, request.body);
    logprobsRefusal(body);
    const messages = toMessages(body);
    await answer(request, reply, deps, {
      body,
      known: Object.keys(ollamaChatRequestSchema.shape),
      empty: messages.length === 0,
      generation: (modelId) => ({
        requestId: `ollama-chat-${crypto.randomUUID()}`,
        modelId,
        prompt: { kind: "chat", messages },
        ...ollamaGenerationFields(body),
      }),
      line: (text, thinking) => ({
        message: { role: "assistant", content: text, ...(thinking ? { thinking } : {}) },
      }),
    });
  });

  app.post("/generate", async (request, reply) => {
    const body = parseWith(ollamaGenerateRequestSchema, request.body);
    logprobsRefusal(body);
    checkGenerate(body);
    const messages: ChatMessage[] = [
      ...(body.system ? [{ role: "system" as const, content: body.system }] : []),
      { role: "user", content: body.prompt },
    ];
    await answer(request, reply, deps, {
      body,
      known: Object.keys(ollamaGenerateRequestSchema.shape),
      empty: body.prompt.length === 0,
      generation: (modelId) => ({
        requestId: `ollama-generate-${crypto.randomUUID()}`,
        modelId,
        // Raw: the prompt as is, no template (and, as in Ollama, no system prompt).
        prompt: body.raw ? { kind: "text", text: body.prompt } : { kind: "chat", messages },
        ...ollamaGenerationFields(body),
      }),
      line: (text, thinking) => ({ response: text, ...(thinking ? { thinking } : {}) }),
    });
  });
}

interface Answer {
  body: { model: string; stream?: boolean; keep_alive?: number | string } & Record<string, unknown>;
  known: string[];
  /** No prompt: Ollama's way to load (or, with `keep_alive: 0`, unload) a model. */
  empty: boolean;
  generation: (modelId: string) => GenerationRequest;
  /** The route's line for a piece of text and/or thinking. */
  line: (text: string, thinking?: string) => Record<string, unknown>;
}

async function answer(request: FastifyRequest, reply: FastifyReply, deps: OllamaRouteDeps, spec: Answer) {
  const { body } = spec;
  const keepAlive = parseKeepAlive(body.keep_alive);
  const ignored = ignoredOllamaFields(body, spec.known);
  if (ignored.length > 0) void reply.header("x-perch-ignored-fields", ignored.join(", "));
  // Unloading names a model that must exist; anything else may name a file just copied in.
  const modelId = await resolveOllamaModel(deps, body.model, { required: spec.empty && keepAlive === 0 });
  const head = () => ({ model: body.model, created_at: new Date().toISOString() });

  if (spec.empty) {
    let reason = "load";
    if (keepAlive === 0) {
      const loaded = deps.engine.list().find((info) => info.id === modelId);
      if (loaded && loaded.activeUsers === 0 && loaded.state === "loaded") await deps.engine.unload(modelId);
      reason = "unload";
    } else {
      await deps.engine.load(modelId);
      if (keepAlive !== undefined) deps.engine.keepAlive(modelId, keepAlive);
    }
    const line = { ...head(), ...spec.line(""), done: true, done_reason: reason };
    if (body.stream === false) return reply.send(line);
    const stream = new NdjsonStream(request, reply);
    stream.send(line);
    stream.end();
    return;
  }

  const generation = spec.generation(modelId);
  const finish = (result: GenerationResult) => {
    noteUsage(request, result.usage);
    if (keepAlive !== undefined) deps.engine.keepAlive(modelId, keepAlive);
  };
  if (body.stream === false) {
    const result = await deps.generate({ ...generation, signal: abortOnDisconnect(reply) });
    finish(result);
    return reply.send({ ...head(), ...spec.line(result.text, result.reasoning), ...doneFields(result) });
  }
  const stream = new NdjsonStream(request, reply);
  try {
    const result = await deps.generate({
      ...generation,
      signal: stream.signal,
      onText: (text) => {
        if (text.length > 0) stream.send({ ...head(), ...spec.line(text), done: false });
      },
      onReasoning: (text) => {
        if (text.length > 0) stream.send({ ...head(), ...spec.line("", text), done: false });
      },
    });
    finish(result);
    stream.send({ ...head(), ...spec.line(""), ...doneFields(result) });
    stream.end();
  } catch (error) {
    stream.fail(error);
  }
}
