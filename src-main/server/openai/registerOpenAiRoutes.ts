import type { FastifyInstance } from "fastify";
import {
  chatCompletionRequestSchema,
  completionRequestSchema,
  openAiRoutes,
  type ChatCompletionRequest,
  type CompletionRequest,
} from "../../../src-shared/contracts/openai.js";
import type { GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";
import { abortOnDisconnect } from "../abortOnDisconnect.js";
import { parseWith } from "../../base/parseWith.js";
import { noteUsage } from "../requestUsage.js";
import { SseStream } from "../SseStream.js";
import { chatToGenerationRequest, completionToGenerationRequest } from "./toGenerationRequest.js";
import { toUsage } from "./toUsage.js";

export interface OpenAiRouteDeps {
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
  /** The models a client may name (ids and aliases). */
  listModels: () => Promise<{ id: string; created: number }[]>;
}

const now = () => Math.floor(Date.now() / 1000);
const finishReason = (result: GenerationResult) => (result.finishReason === "length" ? "length" : "stop");

/** `/v1/models`, `/v1/chat/completions` and `/v1/completions`, streaming and not. */
export async function registerOpenAiRoutes(app: FastifyInstance, deps: OpenAiRouteDeps): Promise<void> {
  app.get(openAiRoutes.listModels.path, async () => ({
    object: "list" as const,
    data: (await deps.listModels()).map((model) => ({
      id: model.id,
      object: "model" as const,
      created: model.created,
      owned_by: "perch",
    })),
  }));

  app.post(openAiRoutes.chatCompletions.path, async (request, reply) => {
    const body = parseWith(chatCompletionRequestSchema, request.body);
    const generation = chatToGenerationRequest(body);
    if (!body.stream) {
      const result = await deps.generate({ ...generation, signal: abortOnDisconnect(reply) });
      noteUsage(request, result.usage);
      return {
        id: generation.requestId,
        object: "chat.completion" as const,
        created: now(),
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant" as const,
              content: result.text,
              ...(result.reasoning ? { reasoning_content: result.reasoning } : {}),
              refusal: null,
            },
            finish_reason: finishReason(result),
            logprobs: null,
          },
        ],
        usage: toUsage(result),
      };
    }
    await streamChat(new SseStream(request, reply), body, generation, deps);
  });

  app.post(openAiRoutes.completions.path, async (request, reply) => {
    const body = parseWith(completionRequestSchema, request.body);
    const generation = completionToGenerationRequest(body);
    const prefix = body.echo ? (generation.prompt.kind === "text" ? generation.prompt.text : "") : "";
    if (!body.stream) {
      const result = await deps.generate({ ...generation, signal: abortOnDisconnect(reply) });
      noteUsage(request, result.usage);
      return {
        id: generation.requestId,
        object: "text_completion" as const,
        created: now(),
        model: body.model,
        choices: [
          { index: 0, text: prefix + result.text, finish_reason: finishReason(result), logprobs: null },
        ],
        usage: toUsage(result),
      };
    }
    await streamCompletion(new SseStream(request, reply), body, generation, prefix, deps);
  });
}

/** The optional usage-only chunk (`stream_options.include_usage`), then `[DONE]`. */
function finishStream(
  stream: SseStream,
  body: ChatCompletionRequest | CompletionRequest,
  head: { id: string; object: string; created: number },
  result: GenerationResult,
): void {
  if (body.stream_options?.include_usage) {
    stream.send({ ...head, model: body.model, choices: [], usage: toUsage(result) });
  }
  stream.send("[DONE]");
  stream.end();
}

async function streamChat(
  stream: SseStream,
  body: ChatCompletionRequest,
  generation: GenerationRequest,
  deps: OpenAiRouteDeps,
): Promise<void> {
  const created = now();
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null,
    extra: Record<string, unknown> = {},
  ) => ({
    id: generation.requestId,
    object: "chat.completion.chunk",
    created,
    model: body.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...extra,
  });
  let sentRole = false;
  const sendRole = () => {
    if (sentRole) return;
    stream.send(chunk({ role: "assistant", content: "" }, null));
    sentRole = true;
  };
  try {
    const result = await deps.generate({
      ...generation,
      signal: stream.signal,
      onText: (text) => {
        sendRole();
        if (text.length > 0) stream.send(chunk({ content: text }, null));
      },
      onReasoning: (text) => {
        sendRole();
        stream.send(chunk({ reasoning_content: text }, null));
      },
    });
    noteUsage(stream.request, result.usage);
    sendRole();
    // The finish chunk carries Perch's timing/speculation stats even without include_usage.
    stream.send(chunk({}, finishReason(result), { perch: toUsage(result).perch }));
    finishStream(
      stream,
      body,
      { id: generation.requestId, object: "chat.completion.chunk", created },
      result,
    );
  } catch (error) {
    stream.fail(error);
  }
}

async function streamCompletion(
  stream: SseStream,
  body: CompletionRequest,
  generation: GenerationRequest,
  prefix: string,
  deps: OpenAiRouteDeps,
): Promise<void> {
  const created = now();
  const chunk = (text: string, finish: string | null, extra: Record<string, unknown> = {}) => ({
    id: generation.requestId,
    object: "text_completion",
    created,
    model: body.model,
    choices: [{ index: 0, text, finish_reason: finish, logprobs: null }],
    ...extra,
  });
  try {
    if (prefix) stream.send(chunk(prefix, null));
    const result = await deps.generate({
      ...generation,
      signal: stream.signal,
      onText: (text) => {
        if (text.length > 0) stream.send(chunk(text, null));
      },
    });
    noteUsage(stream.request, result.usage);
    stream.send(chunk("", finishReason(result), { perch: toUsage(result).perch }));
    finishStream(stream, body, { id: generation.requestId, object: "text_completion", created }, result);
  } catch (error) {
    stream.fail(error);
  }
}
