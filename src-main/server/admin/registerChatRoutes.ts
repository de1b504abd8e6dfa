import type { FastifyInstance } from "fastify";
import {
  conversationIdSchema,
  conversationPatchSchema,
  replyParamsSchema,
  replyRequestSchema,
} from "../../../src-shared/contracts/chat.js";
import {
  conversationFileName,
  conversationMarkdown,
} from "../../../src-shared/export/conversationMarkdown.js";
import type { ChatService } from "../../chat/ChatService.js";
import { parseJsonSchema } from "../../chat/toGenerationRequest.js";
import { PerchError } from "../../base/PerchError.js";
import { parseWith } from "../../base/parseWith.js";
import { streamRunEvents } from "../streamRunEvents.js";

/** A malformed id is `invalid_id` (it names a file), like the other admin ids. */
function conversationIdOf(params: unknown): string {
  const checked = conversationIdSchema.safeParse((params as Record<string, unknown> | null)?.conversation_id);
  if (!checked.success) {
    throw new PerchError("invalid_id", "Invalid conversation_id: malformed conversation id.", {
      param: "conversation_id",
    });
  }
  return checked.data;
}

/** The dashboard chat (see `contracts/chat.ts`): conversations and their streamed replies. */
export async function registerChatRoutes(app: FastifyInstance, chat: ChatService): Promise<void> {
  const base = "/admin/api/conversations";
  const { store } = chat;

  app.get(base, async () => ({ conversations: await store.list() }));

  app.post(base, async (request, reply) => {
    const patch = parseWith(conversationPatchSchema, request.body ?? {});
    if (patch.json_schema) parseJsonSchema(patch.json_schema);
    return reply.code(201).send(await store.create(patch));
  });

  app.get(`${base}/:conversation_id`, async (request) => store.get(conversationIdOf(request.params)));

  app.put(`${base}/:conversation_id`, async (request) => {
    const id = conversationIdOf(request.params);
    const patch = parseWith(conversationPatchSchema, request.body ?? {});
    if (patch.json_schema) parseJsonSchema(patch.json_schema);
    return store.update(id, (draft) => ({ ...draft, ...patch }));
  });

  app.delete(`${base}/:conversation_id`, async (request) => {
    const id = conversationIdOf(request.params);
    await store.delete(id);
    return { deleted: true as const, conversation_id: id };
  });

  app.get(`${base}/:conversation_id/markdown`, async (request) => {
    const conversation = await store.get(conversationIdOf(request.params));
    return { filename: conversationFileName(conversation), markdown: conversationMarkdown(conversation) };
  });

  app.post(`${base}/:conversation_id/replies`, async (request, reply) => {
    const id = conversationIdOf(request.params);
    const body = parseWith(replyRequestSchema, request.body);
    return reply.code(202).send(await chat.startReply(id, body));
  });

  app.post("/admin/api/chat/replies/:reply_id/cancel", async (request) => {
    const { reply_id } = parseWith(replyParamsSchema, request.params, "path");
    return chat.cancel(reply_id);
  });

  // Replays the reply from its first event: a window reopened mid-reply draws it whole.
  // Closing the stream only stops listening; the reply goes on and is saved (cancel stops it).
  app.get("/admin/api/chat/replies/:reply_id/stream", async (request, reply) => {
    const { reply_id } = parseWith(replyParamsSchema, request.params, "path");
    await streamRunEvents(request, reply, (onEvent, onEnd) => chat.subscribe(reply_id, onEvent, onEnd));
  });
}
