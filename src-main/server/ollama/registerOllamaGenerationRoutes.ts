import { partialArguments } from "../../tools/partialArguments.js";
import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  ollamaChatRequestSchema,
  ollamaGenerateRequestSchema,
  type OllamaChatRequest,
  type OllamaGenerateRequest,
} from "../../../src-shared/contracts/ollama.js";
import { PerchError } from "../../base/PerchError.js";
import type {
  ConversationMessage,
  GenerationRequest,
  GenerationResult,
} from "../../scheduler/GenerationRequest.js";
import { abortOnDisconnect } from "../abortOnDisconnect.js";
import { ignoredFieldsOf, noteIgnoredFields } from "../ignoredFields.js";
import { noteUsage } from "../requestUsage.js";
import { unenforcedSchemaPaths } from "../../tools/toFunctionSchema.js";
import { NdjsonStream } from "./NdjsonStream.js";
import type { OllamaRouteDeps } from "./OllamaRouteDeps.js";
import { ollamaGenerationFields } from "./ollamaGenerationFields.js";
import { parseOllamaBody, type ParsedOllamaBody } from "./parseOllamaBody.js";
import { resolveOllamaModel } from "./resolveOllamaModel.js";
import { generateFitted } from "./fitOllamaChat.js";
import { toOllamaConversation, toOllamaToolUse } from "./toOllamaConversation.js";
import { toLogprobEntries } from "../toLogprobEntries.js";

const ns = (ms: number) => (Number.isFinite(ms) ? Math.max(0, Math.round(ms * 1e6)) : 0);

/**
 * Ollama's closing statistics (nanoseconds), from Perch's usage and timings: `load_duration` the
 * wait for the model to load, `prompt_eval_duration` admission to first token, `eval_duration`
 * first token to last (so `eval_count / eval_duration` is the generation speed, without load or
 * queue), `total_duration` the request's whole time here (`receivedAt`: when the route got it).
 */
function doneFields(result: GenerationResult, receivedAt: number) {
  const { timings, usage } = result;
  const generationMs =
    timings.generationMs ?? timings.totalMs - (timings.loadMs ?? 0) - timings.queueWaitMs - timings.ttftMs;
  return {
    done: true as const,
    // A turn that ended in tool calls is "stop" for Ollama.
    done_reason: result.finishReason === "length" ? "length" : "stop",
    total_duration: ns(Math.max(timings.totalMs, performance.now() - receivedAt)),
    load_duration: ns(timings.loadMs ?? 0),
    prompt_eval_count: usage.promptTokens,
    prompt_eval_duration: ns(timings.ttftMs),
    eval_count: usage.completionTokens,
    eval_duration: ns(generationMs),
  };
}

function refuse(param: string, message: string): never {
  throw new PerchError("invalid_request", message, { param });
}

/** Schema keywords of `format` the grammar cannot enforce (`minimum`, `pattern`...), as request paths. */
function unenforcedFormatFields(body: OllamaChatRequest | OllamaGenerateRequest): string[] {
  return body.format && typeof body.format === "object" ? unenforcedSchemaPaths(body.format, "format") : [];
}

/** Tool and `format` schema keywords the grammar cannot enforce, as request paths. */
function unenforcedSchemaFields(body: OllamaChatRequest): string[] {
  return [
    ...(body.tools ?? []).flatMap((tool, index) =>
      tool.function.parameters
        ? unenforcedSchemaPaths(tool.function.parameters, `tools[${index}].function.parameters`)
        : [],
    ),
    ...unenforcedFormatFields(body),
  ];
}

function checkGenerate(body: OllamaGenerateRequest): void {
  if (body.images && body.images.length > 0)
    refuse("images", "images are not supported: Perch serves text models only.");
  if (body.template) refuse("template", "a custom template is not supported; Perch uses the model's own.");
  if (body.context && body.context.length > 0) {
    refuse("context", "context is not supported; send the whole conversation to /api/chat instead.");
  }
}

/** `POST /api/chat` and `POST /api/generate`: NDJSON streaming by default, one object with `stream: false`. */
export function registerOllamaGenerationRoutes(app: FastifyInstance, deps: OllamaRouteDeps): void {
  app.post("/chat", async (request, reply) => {
    const parsed = parseOllamaBody(request, reply, ollamaChatRequestSchema, unenforcedSchemaFields);
    const { body } = parsed;
    const messages = toOllamaConversation(body);
    const tools = toOllamaToolUse(body);
    await answer(request, reply, deps, parsed, {
      empty: messages.length === 0,
      generation: (modelId) => ({
        requestId: `ollama-chat-${crypto.randomUUID()}`,
        modelId,
        prompt: { kind: "chat", messages },
        ...(tools ? { tools } : {}),
        ...ollamaGenerationFields(body),
      }),

      line: (text, thinking, toolCalls) => ({
        message: {
          role: "assistant",
          content: text,
          ...(thinking ? { thinking } : {}),
          // Ollama's shape: arguments as an object, the call's place in the turn as `index`.
          ...(toolCalls?.length
            ? {
                tool_calls: toolCalls.map((call, index) => ({
                  function: { index, name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
      }),
    });
  });

  app.post("/generate", async (request, reply) => {
    // Raw and fill-in-the-middle prompts skip the template, and with it the system prompt.
    const parsed = parseOllamaBody(request, reply, ollamaGenerateRequestSchema, (body) => [
      ...((body.raw || body.suffix) && body.system ? ["system"] : []),
      ...unenforcedFormatFields(body),
    ]);
    const { body } = parsed;
    checkGenerate(body);
    const messages: ConversationMessage[] = [
      ...(body.system ? [{ role: "system" as const, content: body.system }] : []),
      { role: "user", content: body.prompt },
    ];
    await answer(request, reply, deps, parsed, {
      empty: body.prompt.length === 0 && !body.suffix,
      generation: (modelId) => ({
        requestId: `ollama-generate-${crypto.randomUUID()}`,
        modelId,
        // Raw: the prompt as is, no template (and, as in Ollama, no system prompt). A suffix:
        // fill-in-the-middle between the model's FIM tokens (refused on a model without them).
        prompt: body.suffix
          ? { kind: "text", text: body.prompt, suffix: body.suffix }
          : body.raw
            ? { kind: "text", text: body.prompt }
            : { kind: "chat", messages },
        ...ollamaGenerationFields(body),
      }),
      line: (text, thinking) => ({ response: text, ...(thinking ? { thinking } : {}) }),
    });
  });
}

interface Answer {
  /** No prompt: Ollama's way to load (or, with `keep_alive: 0`, unload) a model. */
  empty: boolean;
  generation: (modelId: string) => GenerationRequest;
  /** The route's line for a piece of text, thinking and/or tool calls (chat only). */
  line: (
    text: string,
    thinking?: string,
    toolCalls?: { name: string; arguments: unknown }[],
  ) => Record<string, unknown>;
}

async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: OllamaRouteDeps,
  { body, keepAlive }: ParsedOllamaBody<{ model: string; stream?: boolean; think?: boolean | string }>,
  spec: Answer,
) {
  const receivedAt = performance.now();
  // Unloading names a model that must exist; anything else may name a file just copied in.
  const modelId = await resolveOllamaModel(deps, body.model, { required: spec.empty && keepAlive === 0 });
  const head = () => ({ model: body.model, created_at: new Date().toISOString() });

  if (spec.empty) {
    let reason = "load";
    if (keepAlive === 0) {
      await unloadWhenIdle(deps.engine, modelId);
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

  const generation: GenerationRequest = {
    ...spec.generation(modelId),
    // `think` where the prompt's format has no thought segment (or a raw prompt) changes nothing.
    onPromptStart: ({ canThink }) => {
      const ignored = ignoredFieldsOf(request) ?? [];
      if (
        body.think !== undefined &&
        body.think !== false &&
        canThink === false &&
        !ignored.includes("think")
      )
        noteIgnoredFields(request, reply, [...ignored, "think"]);
    },
  };
  const generate = (request: GenerationRequest) =>
    generateFitted(request, deps.generate, deps.countPromptTokens);
  const finish = (result: GenerationResult) => {
    noteUsage(request, result.usage);
    if (keepAlive !== undefined) deps.engine.keepAlive(modelId, keepAlive);
  };
  if (body.stream === false) {
    const result = await generate({ ...generation, signal: abortOnDisconnect(reply) });
    finish(result);
    return reply.send({
      ...head(),
      ...spec.line(result.text, result.reasoning, ollamaToolCalls(result)),
      ...(result.logprobs ? { logprobs: toLogprobEntries(result.logprobs) } : {}),
      ...doneFields(result, receivedAt),
    });
  }
  const stream = new NdjsonStream(request, reply, { generation: true });
  try {
    const result = await generate({
      ...generation,
      signal: stream.signal,
      // A line's logprobs are the tokens of its text.
      onText: (text, logprobs) => {
        if (text.length === 0 && !logprobs?.length) return;
        stream.send({
          ...head(),
          ...spec.line(text),
          ...(logprobs ? { logprobs: toLogprobEntries(logprobs) } : {}),
          done: false,
        });
      },
      onReasoning: (text) => {
        if (text.length > 0) stream.send({ ...head(), ...spec.line("", text), done: false });
      },
    });
    finish(result);
    // Ollama streams whole tool calls in one line before the closing one.
    const calls = ollamaToolCalls(result);
    if (calls.length > 0) stream.send({ ...head(), ...spec.line("", undefined, calls), done: false });
    stream.send({ ...head(), ...spec.line(""), ...doneFields(result, receivedAt) });
    stream.end();
  } catch (error) {
    stream.fail(error);
  }
}

/**
 * Ollama's unload (`ollama stop`): an idle model unloads now, a busy one as soon as its running
 * requests end, a loading one once it has loaded and its requests have ended.
 */
async function unloadWhenIdle(engine: OllamaRouteDeps["engine"], modelId: string): Promise<void> {
  const loaded = engine.list().find((info) => info.id === modelId);
  if (!loaded) return;
  if (loaded.state === "loaded") {
    if (loaded.activeUsers === 0) await engine.unload(modelId);
    else engine.keepAlive(modelId, 0);
    return;
  }
  // Joins the load under way (a failed load has nothing left to unload).
  void engine.load(modelId).then(
    () => engine.keepAlive(modelId, 0),
    () => undefined,
  );
}

/**
 * The calls to answer: the whole ones, then one `num_predict` cut off with the members of its
 * arguments that closed (as on the Anthropic route; `/v1` sends its text as it was cut).
 */
function ollamaToolCalls(result: GenerationResult): { name: string; arguments: unknown }[] {
  return [
    ...(result.toolCalls ?? []),
    ...(result.unfinishedToolCalls ?? []).map((call) => ({
      name: call.name,
      arguments: partialArguments(call.argumentsText),
    })),
  ];
}
