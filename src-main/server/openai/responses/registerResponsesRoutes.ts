import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PerchError } from "../../../base/PerchError.js";
import {
  responseInputItemsQuerySchema,
  responseRequestSchema,
  responseRoutes,
  type ResponseRequest,
} from "../../../../src-shared/contracts/openaiResponses.js";
import { parseWith } from "../../../base/parseWith.js";
import type { GenerationRequest, GenerationResult } from "../../../scheduler/GenerationRequest.js";
import { abortOnDisconnect } from "../../abortOnDisconnect.js";
import { listDroppedFields, noteIgnoredFields } from "../../ignoredFields.js";
import { noteUsage } from "../../requestUsage.js";
import { SseStream } from "../../SseStream.js";
import { enforceOpenAiFieldPolicy } from "../openAiFieldPolicy.js";
import { chatToGenerationRequest, unenforcedSchemaFields } from "../toGenerationRequest.js";
import { pageInputItems } from "./pageInputItems.js";
import { ResponseStore } from "./ResponseStore.js";
import { toStoredInputItems } from "./toStoredInputItems.js";
import { type ChatMessage, inputItemsOf, toChatMessages, toChatRequest } from "./toChatRequest.js";

export interface ResponsesRouteDeps {
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
}

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;

/** The ids of a response's output items: the stream hands them out as items open, the answer reuses them. */
class ItemIds {
  readonly message = newId("msg");
  readonly reasoning = newId("rs");
  private readonly calls = new Map<number, string>();
  call(index: number): string {
    let id = this.calls.get(index);
    if (!id) this.calls.set(index, (id = newId("fc")));
    return id;
  }
}

type OutputItem = ReturnType<typeof toOutputItems>[number];

/** A result's output items: reasoning, the message (unless the turn only called tools), the calls. */
function toOutputItems(result: GenerationResult, ids: ItemIds) {
  const status = result.finishReason === "length" ? ("incomplete" as const) : ("completed" as const);
  const calls = [
    ...(result.toolCalls ?? []).map((call) => ({ call, status: "completed" as const })),
    ...(result.unfinishedToolCalls ?? []).map((call) => ({ call, status: "incomplete" as const })),
  ];
  return [
    ...(result.reasoning
      ? [
          {
            type: "reasoning" as const,
            id: ids.reasoning,
            summary: [],
            content: [{ type: "reasoning_text" as const, text: result.reasoning }],
          },
        ]
      : []),
    ...(result.text || calls.length === 0
      ? [
          {
            type: "message" as const,
            id: ids.message,
            status,
            role: "assistant" as const,
            content: [{ type: "output_text" as const, text: result.text, annotations: [] }],
          },
        ]
      : []),
    ...calls.map(({ call, status: callStatus }, index) => ({
      type: "function_call" as const,
      id: ids.call(index),
      call_id: call.id,
      name: call.name,
      arguments: call.argumentsText ?? JSON.stringify((call as { arguments?: unknown }).arguments ?? {}),
      status: callStatus,
    })),
  ];
}

/** The output as chat messages, for a later turn that continues this response. */
function outputAsMessages(output: OutputItem[]): ChatMessage[] {
  const text = output.flatMap((item) => (item.type === "message" ? [item.content[0]!.text] : [])).join("");
  const calls = output.flatMap((item) =>
    item.type === "function_call"
      ? [
          {
            id: item.call_id,
            type: "function" as const,
            function: { name: item.name, arguments: item.arguments },
          },
        ]
      : [],
  );
  return [
    {
      role: "assistant",
      content: text || (calls.length ? null : ""),
      ...(calls.length ? { tool_calls: calls } : {}),
    },
  ];
}

/** The response object: what was asked (echoed as OpenAI does), its output and usage. */
function toResponse(
  id: string,
  createdAt: number,
  body: ResponseRequest,
  state:
    | { status: "in_progress" }
    | { status: "completed" | "incomplete"; output: OutputItem[]; result: GenerationResult },
) {
  const done = state.status !== "in_progress";
  const usage = done ? state.result.usage : undefined;
  return {
    id,
    object: "response" as const,
    created_at: createdAt,
    status: state.status,
    error: null,
    incomplete_details: state.status === "incomplete" ? { reason: "max_output_tokens" as const } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output: done ? state.output : [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    store: body.store !== false,
    temperature: body.temperature ?? null,
    text: { format: body.text?.format ?? { type: "text" as const } },
    tool_choice: body.tool_choice ?? "auto",
    tools: (body.tools ?? []).map((tool) => ({
      type: "function" as const,
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters ?? null,
      strict: tool.strict ?? false,
    })),
    top_p: body.top_p ?? null,
    truncation: "disabled" as const,
    metadata: body.metadata ?? {},
    ...(body.user ? { user: body.user } : {}),
    usage: usage
      ? {
          input_tokens: usage.promptTokens,
          input_tokens_details: { cached_tokens: usage.cachedPromptTokens },
          output_tokens: usage.completionTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.promptTokens + usage.completionTokens,
        }
      : null,
  };
}

/**
 * `POST /v1/responses` (OpenAI's Responses API: text, reasoning, function calls; streamed as
 * its typed events), `GET` and `DELETE /v1/responses/{id}` and `GET
 * /v1/responses/{id}/input_items` for the responses kept in memory.
 * The conversation maps onto the chat route's request, so both generate alike.
 */
export function registerResponsesRoutes(app: FastifyInstance, deps: ResponsesRouteDeps): void {
  const store = new ResponseStore();

  app.get(responseRoutes.getResponse.path, async (request) =>
    store.response((request.params as { id: string }).id),
  );
  app.get(responseRoutes.listInputItems.path, async (request) => {
    const { id } = request.params as { id: string };
    const query = parseWith(responseInputItemsQuerySchema, request.query, "query");
    return pageInputItems(store.inputItems(id), query);
  });
  app.delete(responseRoutes.deleteResponse.path, async (request) => {
    const { id } = request.params as { id: string };
    store.delete(id);
    return { id, object: "response" as const, deleted: true as const };
  });

  app.post(responseRoutes.createResponse.path, async (request, reply) => {
    try {
      return await createResponse(request, reply);
    } catch (error) {
      throw inResponsesTerms(error);
    }
  });

  async function createResponse(request: FastifyRequest, reply: FastifyReply) {
    const body = parseWith(responseRequestSchema, request.body);
    const continued = body.previous_response_id
      ? store.continuation(body.previous_response_id)
      : { conversation: [], items: [] };
    const history = continued.conversation;
    const chat = toChatRequest(body, history);
    enforceOpenAiFieldPolicy(chat);
    noteIgnoredFields(request, reply, [
      ...listDroppedFields(request.body, body),
      // `include` is read only to refuse logprobs: what else it asks for is not added.
      ...(body.include && body.include.length > 0 ? ["include"] : []),
      // Named as this request spells them, not as the chat request it maps to.
      ...unenforcedSchemaFields(chat).map((path) =>
        path
          .replace(/^tools\[(\d+)\]\.function\.parameters/, "tools[$1].parameters")
          .replace(/^response_format\.json_schema\.schema/, "text.format.schema"),
      ),
    ]);
    const id = newId("resp");
    const createdAt = Math.floor(Date.now() / 1000);
    const generation = { ...chatToGenerationRequest(chat), requestId: id };
    const ids = new ItemIds();
    const finish = (result: GenerationResult) => {
      noteUsage(request, result.usage);
      const output = toOutputItems(result, ids);
      const response = toResponse(id, createdAt, body, {
        status: result.finishReason === "length" ? "incomplete" : "completed",
        output,
        result,
      });
      if (body.store !== false) {
        store.keep({
          response,
          conversation: [...history, ...toChatMessages(inputItemsOf(body)), ...outputAsMessages(output)],
          inputItems: [...continued.items, ...toStoredInputItems(inputItemsOf(body))],
        });
      }
      return response;
    };
    if (!body.stream) return finish(await deps.generate({ ...generation, signal: abortOnDisconnect(reply) }));
    await streamResponse(new SseStream(request, reply, { generation: true }), {
      id,
      createdAt,
      body,
      generation,
      ids,
      finish,
      deps,
    });
    return undefined;
  }
}

/**
 * An error as this request spells its fields: the request is answered through the chat request
 * it maps to, whose `messages` are this one's `input` and whose `response_format` is `text.format`.
 */
function inResponsesTerms(error: unknown): unknown {
  if (!(error instanceof PerchError)) return error;
  const rename = (text: string) =>
    text
      .replace(/\bresponse_format\.json_schema\.schema\b/g, "text.format.schema")
      .replace(/\bresponse_format\b/g, "text.format")
      .replace(/\btools\[(\d+)\]\.function\.parameters\b/g, "tools[$1].parameters")
      .replace(/\bmessages\b/g, "input");
  const param = error.param === null ? undefined : rename(error.param);
  // In the text only where it names the field (`'messages'`, `messages[2]`): the route's own
  // wording ("a list of items: messages ({role, ...})") stays as written.
  const message = error.message.replace(/'(messages|response_format)([^']*)'|\bmessages(?=\[)/g, (field) =>
    rename(field),
  );
  if (param === (error.param ?? undefined) && message === error.message) return error;
  return new PerchError(error.code, message, { status: error.status, param, details: error.details });
}

/** The streamed events of one response, each with its `sequence_number`, as the `openai` SDK reads them. */
async function streamResponse(
  stream: SseStream,
  run: {
    id: string;
    createdAt: number;
    body: ResponseRequest;
    generation: GenerationRequest;
    ids: ItemIds;
    finish: (result: GenerationResult) => ReturnType<typeof toResponse>;
    deps: ResponsesRouteDeps;
  },
): Promise<void> {
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>) =>
    stream.send({ type, sequence_number: sequence++, ...fields }, type);
  let nextIndex = 0;
  let reasoning: { index: number; text: string } | undefined;
  let message: { index: number; text: string; closed: boolean } | undefined;
  const calls = new Map<number, { index: number; id: string; callId: string; name: string; args: string }>();

  const callItem = (call: { id: string; callId: string; name: string; args: string }, status: string) => ({
    type: "function_call",
    id: call.id,
    call_id: call.callId,
    name: call.name,
    arguments: call.args,
    status,
  });
  const closeReasoning = () => {
    if (!reasoning) return;
    const item = {
      type: "reasoning",
      id: run.ids.reasoning,
      summary: [],
      content: [{ type: "reasoning_text", text: reasoning.text }],
    };
    send("response.reasoning_text.done", {
      item_id: run.ids.reasoning,
      output_index: reasoning.index,
      content_index: 0,
      text: reasoning.text,
    });
    send("response.content_part.done", {
      item_id: run.ids.reasoning,
      output_index: reasoning.index,
      content_index: 0,
      part: item.content[0],
    });
    send("response.output_item.done", { output_index: reasoning.index, item });
    reasoning = undefined;
  };
  const openMessage = () => {
    if (message) return message;
    closeReasoning();
    message = { index: nextIndex++, text: "", closed: false };
    send("response.output_item.added", {
      output_index: message.index,
      item: { type: "message", id: run.ids.message, status: "in_progress", role: "assistant", content: [] },
    });
    send("response.content_part.added", {
      item_id: run.ids.message,
      output_index: message.index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    return message;
  };
  const closeMessage = (status: "completed" | "incomplete") => {
    if (!message || message.closed) return;
    message.closed = true;
    const part = { type: "output_text", text: message.text, annotations: [] };
    send("response.output_text.done", {
      item_id: run.ids.message,
      output_index: message.index,
      content_index: 0,
      text: message.text,
      logprobs: [],
    });
    send("response.content_part.done", {
      item_id: run.ids.message,
      output_index: message.index,
      content_index: 0,
      part,
    });
    send("response.output_item.done", {
      output_index: message.index,
      item: { type: "message", id: run.ids.message, status, role: "assistant", content: [part] },
    });
  };
  const closeCall = (
    call: { index: number; id: string; callId: string; name: string; args: string },
    status: string,
  ) => {
    send("response.function_call_arguments.done", {
      item_id: call.id,
      output_index: call.index,
      name: call.name,
      arguments: call.args,
    });
    send("response.output_item.done", { output_index: call.index, item: callItem(call, status) });
  };

  // The stream opens once the prompt starts (the model is loaded and the request prepared), so an
  // unknown model or a prompt too long is still a JSON error with its status.
  let announced = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    const response = toResponse(run.id, run.createdAt, run.body, { status: "in_progress" });
    send("response.created", { response });
    send("response.in_progress", { response });
  };
  try {
    const result = await run.deps.generate({
      ...run.generation,
      signal: stream.signal,
      onPromptStart: announce,
      onReasoning: (text) => {
        if (!reasoning) {
          reasoning = { index: nextIndex++, text: "" };
          send("response.output_item.added", {
            output_index: reasoning.index,
            item: { type: "reasoning", id: run.ids.reasoning, summary: [], content: [] },
          });
          send("response.content_part.added", {
            item_id: run.ids.reasoning,
            output_index: reasoning.index,
            content_index: 0,
            part: { type: "reasoning_text", text: "" },
          });
        }
        reasoning.text += text;
        send("response.reasoning_text.delta", {
          item_id: run.ids.reasoning,
          output_index: reasoning.index,
          content_index: 0,
          delta: text,
        });
      },
      onText: (text) => {
        if (text.length === 0) return;
        const open = openMessage();
        open.text += text;
        send("response.output_text.delta", {
          item_id: run.ids.message,
          output_index: open.index,
          content_index: 0,
          delta: text,
          logprobs: [],
        });
      },
      onToolCall: (piece) => {
        if (piece.kind === "start") {
          closeReasoning();
          if (message) closeMessage("completed");
          const call = {
            index: nextIndex++,
            id: run.ids.call(calls.size),
            callId: piece.id,
            name: piece.name,
            args: "",
          };
          calls.set(piece.index, call);
          send("response.output_item.added", {
            output_index: call.index,
            item: callItem(call, "in_progress"),
          });
          return;
        }
        const call = calls.get(piece.index);
        if (!call) return;
        call.args += piece.text;
        send("response.function_call_arguments.delta", {
          item_id: call.id,
          output_index: call.index,
          delta: piece.text,
        });
      },
    });
    announce();
    const response = run.finish(result);
    closeReasoning();
    const status = response.status === "incomplete" ? "incomplete" : "completed";
    // A turn with neither text nor calls still answers an (empty) message, as the non-streamed one does.
    if (!message && calls.size === 0) openMessage();
    closeMessage(status);
    const complete = new Set((result.toolCalls ?? []).map((call) => call.id));
    for (const call of calls.values())
      closeCall(call, complete.has(call.callId) ? "completed" : "incomplete");
    send(response.status === "incomplete" ? "response.incomplete" : "response.completed", { response });
    stream.end();
  } catch (error) {
    // Named as this request spells its fields (`input`, not the chat request's `messages`).
    stream.fail(inResponsesTerms(error), {
      event: "error",
      // Before the first event: a plain JSON error (OpenAI's shape); after it, the `error` event.
      shape: (body) => (announced ? { ...body.error, type: "error", sequence_number: sequence++ } : body),
    });
  }
}
