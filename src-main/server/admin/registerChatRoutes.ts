import type { FastifyInstance } from "fastify";
import {
  conversationFileName,
  conversationMarkdown,
} from "../../../src-shared/export/conversationMarkdown.js";
import type { ChatService } from "../../chat/ChatService.js";
import { parseChatTools, parseJsonSchema } from "../../chat/toGenerationRequest.js";
import { serveRoute, serveStream } from "../serveRoute.js";

/** The dashboard chat (see `contracts/chat.ts`): conversations and their streamed replies. */
export async function registerChatRoutes(app: FastifyInstance, chat: ChatService): Promise<void> {
  const { store } = chat;

  serveRoute(app, "listConversations", async () => ({ conversations: await store.list() }));

  serveRoute(
    app,
    "createConversation",
    async ({ body, reply }) => {
      if (body.json_schema) parseJsonSchema(body.json_schema);
      if (body.tools) parseChatTools(body.tools, body.tool_choice);
      const conversation = await store.create(body);
      reply.code(201);
      return conversation;
    },
    { emptyBody: {} },
  );

  serveRoute(app, "getConversation", async ({ params }) => ({
    ...(await store.get(params.conversation_id)),
    running_reply: chat.runningReply(params.conversation_id),
  }));

  serveRoute(
    app,
    "updateConversation",
    ({ params, body }) => {
      if (body.json_schema) parseJsonSchema(body.json_schema);
      if (body.tools) parseChatTools(body.tools, body.tool_choice);
      return store.update(params.conversation_id, (draft) => ({ ...draft, ...body }));
    },
    { emptyBody: {} },
  );

  serveRoute(app, "deleteConversation", async ({ params }) => {
    await store.delete(params.conversation_id);
    return { deleted: true as const, conversation_id: params.conversation_id };
  });

  serveRoute(app, "exportConversation", async ({ params }) => {
    const conversation = await store.get(params.conversation_id);
    return { filename: conversationFileName(conversation), markdown: conversationMarkdown(conversation) };
  });

  serveRoute(app, "startReply", async ({ params, body, reply }) => {
    const started = await chat.startReply(params.conversation_id, body);
    reply.code(202);
    return started;
  });

  serveRoute(app, "cancelReply", ({ params }) => chat.cancel(params.reply_id));

  // Replays the reply from its first event: a window reopened mid-reply draws it whole.
  // Closing the stream only stops listening; the reply goes on and is saved (cancel stops it).
  serveStream(app, "chatReply", ({ reply_id }, onEvent, onEnd) => chat.subscribe(reply_id, onEvent, onEnd));
}
