import { partialArguments } from "../../tools/partialArguments.js";
import type { FastifyInstance } from "fastify";
import {
  anthropicCountTokensRequestSchema,
  anthropicMessagesRequestSchema,
  anthropicRoutes,
  type AnthropicMessagesRequest,
} from "../../../src-shared/contracts/anthropic.js";
import { anthropicErrorShape } from "./anthropicErrorShape.js";
import type { GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";
import { abortOnDisconnect } from "../abortOnDisconnect.js";
import { listDroppedFields, noteIgnoredFields } from "../ignoredFields.js";
import { parseWith } from "../../base/parseWith.js";
import { noteUsage } from "../requestUsage.js";
import { SseStream } from "../SseStream.js";
import { toApiError } from "../toApiError.js";
import { addRequestId } from "./addRequestId.js";
import { AnthropicThreadStore } from "./AnthropicThreadStore.js";
import { toGenerationRequest, unenforcedToolFields } from "./toGenerationRequest.js";

export interface AnthropicRouteDeps {
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
  /** The prompt tokens a request would put in a sequence (`count_tokens`). */
  countPromptTokens: (request: GenerationRequest) => Promise<number>;
}

/**
 * Anthropic splits the prompt: `input_tokens` evaluated, `cache_read_input_tokens` reused from the
 * prompt cache. Perch never writes a cache on request, so nothing counts as cache creation.
 */
function inputUsage(result: GenerationResult) {
  const cached = result.usage.cachedPromptTokens;
  return {
    input_tokens: result.usage.promptTokens - cached,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}

/**
 * Why the answer ended. A length stop short of `max_tokens` is the context filling up: the scheduler
 * caps a request's tokens to the room its context has left.
 */
function stopInfo(body: AnthropicMessagesRequest, result: GenerationResult) {
  if (result.finishReason === "tool_calls") return { stop_reason: "tool_use" as const, stop_sequence: null };
  if (result.finishReason === "length")
    return {
      stop_reason:
        result.usage.completionTokens < body.max_tokens
          ? ("model_context_window_exceeded" as const)
          : ("max_tokens" as const),
      stop_sequence: null,
    };
  // Which stop sequence ended the text, if one did (the scheduler strips it from the text).
  const matched = result.stopSequence ?? null;
  return matched && body.stop_sequences?.includes(matched)
    ? { stop_reason: "stop_sequence" as const, stop_sequence: matched }
    : { stop_reason: "end_turn" as const, stop_sequence: null };
}

/** The answer's content blocks: thinking first, then text, then the tool calls. */
function answerContent(result: GenerationResult) {
  return [
    // Local models sign nothing: the signature is empty.
    ...(result.reasoning ? [{ type: "thinking" as const, thinking: result.reasoning, signature: "" }] : []),
    // No empty text block (Anthropic refuses one sent back): a turn that wrote no text has none, and
    // one that produced nothing at all (max_tokens before a forced call began) has no content.
    ...(result.text ? [{ type: "text" as const, text: result.text }] : []),
    ...(result.toolCalls ?? []).map((call) => ({
      type: "tool_use" as const,
      id: call.id,
      name: call.name,
      input: call.arguments as Record<string, unknown>,
    })),
    // A call max_tokens cut off, as its stream showed it (stop_reason max_tokens): its input is
    // what of the JSON closes, else empty.
    ...(result.unfinishedToolCalls ?? []).map((call) => ({
      type: "tool_use" as const,
      id: call.id,
      name: call.name,
      input: partialArguments(call.argumentsText),
    })),
  ];
}

/** `POST /v1/messages`: the Anthropic Messages API, streaming events and non-streaming. */
export async function registerAnthropicRoutes(app: FastifyInstance, deps: AnthropicRouteDeps): Promise<void> {
  // Threads continue from the answers of this server only.
  const threads = new AnthropicThreadStore();

  app.post(anthropicRoutes.countTokens.path, { onRequest: addRequestId }, async (request, reply) => {
    const body = parseWith(anthropicCountTokensRequestSchema, request.body);
    noteIgnoredFields(request, reply, listDroppedFields(request.body, body));
    // The prompt is rendered as for a generation (the token limit shapes nothing in it).
    const generation = toGenerationRequest({ ...body, max_tokens: body.max_tokens ?? 1 });
    return { input_tokens: await deps.countPromptTokens(generation) };
  });

  app.post(anthropicRoutes.messages.path, { onRequest: addRequestId }, async (request, reply) => {
    const parsed = parseWith(anthropicMessagesRequestSchema, request.body);
    noteIgnoredFields(request, reply, [
      ...listDroppedFields(request.body, parsed),
      ...unenforcedToolFields(parsed),
    ]);
    const turn = threads.open(parsed);
    const body = turn.body;
    let generation: GenerationRequest;
    try {
      generation = toGenerationRequest(body);
    } catch (error) {
      turn.release();
      throw error;
    }
    if (!body.stream) {
      try {
        const result = await deps.generate({ ...generation, signal: abortOnDisconnect(reply) });
        noteUsage(request, result.usage);
        const content = answerContent(result);
        // A thread keeps whole answers only (a client that went away replays its turn).
        if (result.finishReason !== "cancelled") turn.keep({ id: generation.requestId, content });
        return {
          id: generation.requestId,
          type: "message" as const,
          role: "assistant" as const,
          model: body.model,
          content,
          ...stopInfo(body, result),
          usage: { ...inputUsage(result), output_tokens: result.usage.completionTokens },
        };
      } finally {
        turn.release();
      }
    }
    const stream = new SseStream(request, reply, { generation: true });
    let started = false;
    const start = (input: ReturnType<typeof inputUsage> | undefined) => {
      if (started) return;
      started = true;
      stream.send(
        {
          type: "message_start",
          message: {
            id: generation.requestId,
            type: "message",
            role: "assistant",
            model: body.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              ...(input ?? { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }),
              output_tokens: 0,
            },
          },
        },
        "message_start",
      );
    };
    // Reasoning streams as a `thinking` block, the answer as a `text` block, each tool call as a
    // `tool_use` block whose input streams as `input_json_delta`; a switch closes one block and
    // opens the next.
    type BlockType = "thinking" | "text" | "tool_use";
    let block: { index: number; type: BlockType } | undefined;
    const closeBlock = () => {
      if (block) stream.send({ type: "content_block_stop", index: block.index }, "content_block_stop");
    };
    const openBlock = (type: BlockType, call?: { id: string; name: string }) => {
      start(undefined);
      if (block?.type === type && !call) return block.index;
      closeBlock();
      block = { index: (block?.index ?? -1) + 1, type };
      const contentBlock =
        type === "text"
          ? { type, text: "" }
          : type === "thinking"
            ? { type, thinking: "", signature: "" }
            : { type, id: call?.id, name: call?.name, input: {} };
      stream.send(
        { type: "content_block_start", index: block.index, content_block: contentBlock },
        "content_block_start",
      );
      // Anthropic's streams send a ping after the first block opens; clients skip it.
      if (block.index === 0) stream.send({ type: "ping" }, "ping");
      return block.index;
    };
    try {
      const result = await deps.generate({
        ...generation,
        signal: stream.signal,
        // message_start goes out as the prompt starts, with its usage (Anthropic's order).
        onPromptStart: (usage) =>
          start({
            input_tokens: usage.promptTokens - usage.cachedPromptTokens,
            cache_read_input_tokens: usage.cachedPromptTokens,
            cache_creation_input_tokens: 0,
          }),
        onText: (text) => {
          // No empty text block after a tool call (Anthropic refuses empty text blocks sent back).
          if (text.length === 0) return;
          const index = openBlock("text");
          stream.send(
            { type: "content_block_delta", index, delta: { type: "text_delta", text } },
            "content_block_delta",
          );
        },
        onReasoning: (thinking) => {
          const index = openBlock("thinking");
          stream.send(
            { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking } },
            "content_block_delta",
          );
        },
        onToolCall: (piece) => {
          if (piece.kind === "start") {
            openBlock("tool_use", piece);
            return;
          }
          if (block?.type !== "tool_use") return;
          stream.send(
            {
              type: "content_block_delta",
              index: block.index,
              delta: { type: "input_json_delta", partial_json: piece.text },
            },
            "content_block_delta",
          );
        },
      });
      noteUsage(stream.request, result.usage);
      if (result.finishReason !== "cancelled")
        turn.keep({ id: generation.requestId, content: answerContent(result) });
      start(inputUsage(result));
      // The blocks are the answer's content: never an empty text block, none when nothing came.
      closeBlock();
      stream.send(
        {
          type: "message_delta",
          delta: stopInfo(body, result),
          usage: { ...inputUsage(result), output_tokens: result.usage.completionTokens },
        },
        "message_delta",
      );
      stream.send({ type: "message_stop" }, "message_stop");
      stream.end();
    } catch (error) {
      const { status } = toApiError(error);
      stream.fail(error, { event: "error", shape: (shaped) => anthropicErrorShape(shaped, status) });
    } finally {
      turn.release();
    }
  });
}
