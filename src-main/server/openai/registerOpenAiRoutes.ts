import { setMaxListeners } from "node:events";
import type { FastifyInstance } from "fastify";
import {
  chatCompletionRequestSchema,
  completionRequestSchema,
  openAiRoutes,
  type ChatCompletionRequest,
  type CompletionRequest,
} from "../../../src-shared/contracts/openai.js";
import type {
  GenerationRequest,
  GenerationResult,
  TokenLogprob,
  ToolCallPiece,
} from "../../scheduler/GenerationRequest.js";
import { PerchError } from "../../base/PerchError.js";
import { abortOnDisconnect } from "../abortOnDisconnect.js";
import { parseWith } from "../../base/parseWith.js";
import { noteUsage } from "../requestUsage.js";
import { SseStream } from "../SseStream.js";
import { listDroppedFields, noteIgnoredFields } from "../ignoredFields.js";
import { toAnthropicModelList, wantsAnthropicShape } from "../anthropic/anthropicModels.js";
import { combinedPromptsResult, combinedResult, generateChoices } from "./generateChoices.js";
import { enforceOpenAiFieldPolicy } from "./openAiFieldPolicy.js";
import { finishReasonOf, toChatChoice } from "./toChatChoice.js";
import { toChatLogprobs } from "./toChatLogprobs.js";
import { toCompletionLogprobs } from "./toCompletionLogprobs.js";
import {
  chatToGenerationRequest,
  completionPrompts,
  completionToGenerationRequest,
  type CompletionPrompt,
  unenforcedSchemaFields,
} from "./toGenerationRequest.js";
import { toUsage } from "./toUsage.js";

export interface OpenAiRouteDeps {
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
  /** The models a client may name (ids and aliases). */
  listModels: () => Promise<{ id: string; created: number }[]>;
}

const now = () => Math.floor(Date.now() / 1000);
/** A legacy `functions` request: calls come back as `function_call`. */
const isLegacy = (body: ChatCompletionRequest) => Boolean(body.functions?.length);

/** `/v1/models`, `/v1/chat/completions` and `/v1/completions`, streaming and not. */
export async function registerOpenAiRoutes(app: FastifyInstance, deps: OpenAiRouteDeps): Promise<void> {
  app.get(openAiRoutes.listModels.path, async (request) => {
    const models = await deps.listModels();
    if (wantsAnthropicShape(request)) return toAnthropicModelList(models, request.query);
    return {
      object: "list" as const,
      data: models.map((model) => ({
        id: model.id,
        object: "model" as const,
        created: model.created,
        owned_by: "perch",
      })),
    };
  });

  app.post(openAiRoutes.chatCompletions.path, async (request, reply) => {
    const body = parseWith(chatCompletionRequestSchema, request.body);
    enforceOpenAiFieldPolicy(body);
    noteIgnoredFields(request, reply, [
      ...listDroppedFields(request.body, body),
      ...unenforcedSchemaFields(body),
    ]);
    const generation = chatToGenerationRequest(body);
    const count = body.n ?? 1;
    if (!body.stream) {
      const results = await generateChoices(
        deps.generate,
        { ...generation, signal: abortOnDisconnect(reply) },
        count,
      );
      const result = combinedResult(results);
      noteUsage(request, result.usage);
      return {
        id: generation.requestId,
        object: "chat.completion" as const,
        created: now(),
        model: body.model,
        choices: results.map((choice, index) => toChatChoice(choice, index, isLegacy(body))),
        usage: toUsage(result),
      };
    }
    await streamChat(new SseStream(request, reply, { generation: true }), body, generation, count, deps);
  });

  app.post(openAiRoutes.completions.path, async (request, reply) => {
    const body = parseWith(completionRequestSchema, request.body);
    enforceOpenAiFieldPolicy(body);
    noteIgnoredFields(request, reply, listDroppedFields(request.body, body));
    const prompts = completionPrompts(body);
    if (body.echo && prompts.some((prompt) => "tokens" in prompt)) {
      throw new PerchError("invalid_request", "echo needs text prompts; this one is token ids.", {
        param: "echo",
      });
    }
    const prefixOf = (prompt: CompletionPrompt) => (body.echo && "text" in prompt ? prompt.text : "");
    const generation = completionToGenerationRequest(body, prompts[0]);
    const count = body.n ?? 1;
    if (!body.stream) {
      // Every prompt's choices at once (the scheduler batches or queues them); one failure stops all.
      const controller = new AbortController();
      setMaxListeners(0, controller.signal);
      const disconnected = abortOnDisconnect(reply);
      const stop = () => controller.abort(disconnected.reason);
      if (disconnected.aborted) stop();
      disconnected.addEventListener("abort", stop, { once: true });
      let groups: GenerationResult[][];
      try {
        groups = await Promise.all(
          prompts.map((prompt, index) =>
            generateChoices(
              deps.generate,
              {
                ...(index === 0 ? generation : completionToGenerationRequest(body, prompt)),
                requestId: index === 0 ? generation.requestId : `${generation.requestId}-p${index}`,
                choicesTogether: prompts.length * count,
                signal: controller.signal,
              },
              count,
            ).catch((error: unknown) => {
              controller.abort(error);
              throw error;
            }),
          ),
        );
      } finally {
        disconnected.removeEventListener("abort", stop);
      }
      const result = combinedPromptsResult(groups);
      noteUsage(request, result.usage);
      return {
        id: generation.requestId,
        object: "text_completion" as const,
        created: now(),
        model: body.model,
        // Choices prompt by prompt, `n` each (OpenAI's order).
        choices: groups.flatMap((results, promptIndex) =>
          results.map((choice, index) => ({
            index: promptIndex * count + index,
            text: prefixOf(prompts[promptIndex]!) + choice.text,
            finish_reason: finishReasonOf(choice),
            // `echo` with logprobs is refused, so the tokens start the text.
            logprobs: choice.logprobs ? toCompletionLogprobs(choice.logprobs) : null,
          })),
        ),
        usage: toUsage(result),
      };
    }
    if (prompts.length > 1) {
      throw new PerchError("invalid_request", "Streaming more than one prompt is not offered.", {
        param: "prompt",
      });
    }
    const prefix = prefixOf(prompts[0]!);
    if (count > 1) {
      throw new PerchError(
        "invalid_request",
        "Streaming more than one text-completion choice is not offered.",
        {
          param: "n",
        },
      );
    }
    await streamCompletion(
      new SseStream(request, reply, { generation: true }),
      body,
      generation,
      prefix,
      deps,
    );
  });
}

/** `usage: null` for the chunks of a stream that ends with a usage chunk (`include_usage`). */
function usageNull(body: ChatCompletionRequest | CompletionRequest): { usage?: null } {
  return body.stream_options?.include_usage ? { usage: null } : {};
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

/**
 * A streamed piece of a call: the first piece has the call's index, id, type and name with empty
 * arguments, later pieces only argument text (legacy `functions` requests: `function_call`).
 */
function toolCallDelta(piece: ToolCallPiece, legacy: boolean): Record<string, unknown> {
  if (legacy)
    return {
      function_call: piece.kind === "start" ? { name: piece.name, arguments: "" } : { arguments: piece.text },
    };
  return {
    tool_calls: [
      piece.kind === "start"
        ? {
            index: piece.index,
            id: piece.id,
            type: "function",
            function: { name: piece.name, arguments: "" },
          }
        : { index: piece.index, function: { arguments: piece.text } },
    ],
  };
}

/**
 * Chat chunks for `count` choices generated side by side: each choice's first chunk carries the
 * role; tool calls stream as `delta.tool_calls` (the first piece of a call has its index, id, type
 * and name with empty arguments, later pieces only argument text), as the `openai` SDK accumulates
 * them; each choice ends with its own finish chunk.
 */
async function streamChat(
  stream: SseStream,
  body: ChatCompletionRequest,
  generation: GenerationRequest,
  count: number,
  deps: OpenAiRouteDeps,
): Promise<void> {
  const created = now();
  const chunk = (
    index: number,
    delta: Record<string, unknown>,
    finish: string | null,
    extra = {},
    logprobs: TokenLogprob[] | undefined = undefined,
  ) => ({
    id: generation.requestId,
    object: "chat.completion.chunk",
    created,
    model: body.model,
    choices: [{ index, delta, finish_reason: finish, logprobs: logprobs ? toChatLogprobs(logprobs) : null }],
    // With include_usage, every chunk but the last usage-only one says `usage: null` (OpenAI's shape).
    ...usageNull(body),
    ...extra,
  });
  const sentRole = new Set<number>();
  const openChoice = (index: number) => {
    if (sentRole.has(index)) return;
    sentRole.add(index);
    stream.send(chunk(index, { role: "assistant", content: "" }, null));
  };
  const send = (index: number, delta: Record<string, unknown>, logprobs?: TokenLogprob[]) => {
    openChoice(index);
    stream.send(chunk(index, delta, null, {}, logprobs));
  };
  try {
    const results = await generateChoices(
      deps.generate,
      { ...generation, signal: stream.signal },
      count,
      (index) => ({
        // A piece's logprobs are the tokens of its text (none for reasoning or tool calls); a token
        // that reads empty still gets its chunk, so streamed entries equal the non-streamed ones.
        onText: (text, logprobs) => {
          if (text.length > 0 || logprobs?.length) send(index, { content: text }, logprobs);
        },
        onReasoning: (text) => send(index, { reasoning_content: text }),
        onToolCall: (piece) => send(index, toolCallDelta(piece, isLegacy(body))),
      }),
    );
    const result = combinedResult(results);
    noteUsage(stream.request, result.usage);
    results.forEach((choice, index) => {
      openChoice(index);
      // The finish chunk carries Perch's timing/speculation stats even without include_usage.
      stream.send(chunk(index, {}, finishReasonOf(choice, isLegacy(body)), { perch: toUsage(choice).perch }));
    });
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
  // Legacy text offsets count from the start of the choice's text, across chunks.
  let offset = [...prefix].length;
  const chunk = (
    text: string,
    finish: string | null,
    extra: Record<string, unknown> = {},
    logprobs: TokenLogprob[] | undefined = undefined,
  ) => ({
    id: generation.requestId,
    object: "text_completion",
    created,
    model: body.model,
    choices: [
      {
        index: 0,
        text,
        finish_reason: finish,
        logprobs: logprobs ? toCompletionLogprobs(logprobs, offset) : null,
      },
    ],
    ...usageNull(body),
    ...extra,
  });
  try {
    if (prefix) stream.send(chunk(prefix, null));
    const result = await deps.generate({
      ...generation,
      signal: stream.signal,
      onText: (text, logprobs) => {
        if (text.length === 0 && !logprobs?.length) return;
        stream.send(chunk(text, null, {}, logprobs));
        offset += [...text].length;
      },
    });
    noteUsage(stream.request, result.usage);
    stream.send(chunk("", finishReasonOf(result), { perch: toUsage(result).perch }));
    finishStream(stream, body, { id: generation.requestId, object: "text_completion", created }, result);
  } catch (error) {
    stream.fail(error);
  }
}
