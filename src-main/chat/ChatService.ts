import crypto from "node:crypto";
import type {
  ChatMessage,
  ReplyEvent,
  ReplyRequest,
  RunningReply,
  ReplyStartResponse,
} from "../../src-shared/contracts/chat.js";
import { PerchError } from "../base/PerchError.js";
import { RunEventLog } from "../base/RunEventLog.js";
import { createLogger } from "../base/createLogger.js";
import type { GenerationRequest, GenerationResult } from "../scheduler/GenerationRequest.js";
import { applyReplyRequest } from "./applyReplyRequest.js";
import type { ConversationStore } from "./ConversationStore.js";
import { conversationToGenerationRequest } from "./toGenerationRequest.js";
import { errorMessage } from "../base/describeError.js";

const log = createLogger("chat");

export interface ChatServiceOptions {
  store: ConversationStore;
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
  /**
   * Throws a typed error (`model_not_found`...) for a model that cannot answer, before the
   * conversation is changed: a regenerate or an edit drops replies that a failed run would not
   * give back. Defaults to no check.
   */
  checkModel?: (modelId: string) => Promise<unknown>;
  /** How long a finished reply's events stay for late subscribers. Defaults to `300_000` ms. */
  keepFinishedMs?: number;
}

interface Reply {
  id: string;
  conversationId: string;
  events: RunEventLog<ReplyEvent>;
  controller: AbortController;
  finished: boolean;
  /** Settles once the reply is saved (or its save failed). */
  done?: Promise<void>;
}

const newId = () => crypto.randomUUID();

/**
 * Generates the dashboard chat's replies. A reply runs in the server, not in the window: its
 * events are kept (a late subscriber gets a replay) and the reply is saved to its conversation
 * when it ends, whether it finished, was stopped, or failed.
 */
export class ChatService {
  private readonly replies = new Map<string, Reply>();
  private readonly options: ChatServiceOptions;

  constructor(options: ChatServiceOptions) {
    this.options = options;
  }

  /** The reply still generating for a conversation, from its `started` event; null when none. */
  runningReply(conversationId: string): RunningReply | null {
    const reply = [...this.replies.values()].find(
      (candidate) => candidate.conversationId === conversationId && !candidate.finished,
    );
    const started = reply?.events.events.find((event) => event.type === "started");
    if (!reply || started?.type !== "started") return null;
    return { reply_id: reply.id, message_id: started.message_id, model_id: started.model_id };
  }

  get store(): ConversationStore {
    return this.options.store;
  }

  async startReply(conversationId: string, request: ReplyRequest): Promise<ReplyStartResponse> {
    const running = [...this.replies.values()].find(
      (reply) => reply.conversationId === conversationId && !reply.finished,
    );
    if (running) {
      throw new PerchError("conflict", "This conversation is still answering; stop it or wait for it.");
    }
    const replyId = newId();
    const messageId = newId();
    // Checked before the save: a conversation without a model or with a broken schema is refused as is.
    const before = conversationToGenerationRequest(await this.store.get(conversationId), replyId);
    await this.options.checkModel?.(before.modelId);
    const conversation = await this.store.update(conversationId, (draft) => {
      applyReplyRequest(draft, request, () => ({ id: newId(), created_at: new Date().toISOString() }));
    });
    const generation = conversationToGenerationRequest(conversation, replyId);
    const reply: Reply = {
      id: replyId,
      conversationId,
      // Every text piece is kept (the replay draws the reply whole): bounded by the reply's tokens.
      events: new RunEventLog<ReplyEvent>({ maxEvents: Number.POSITIVE_INFINITY }),
      controller: new AbortController(),
      finished: false,
    };
    this.replies.set(replyId, reply);
    this.emit(reply, {
      type: "started",
      reply_id: replyId,
      conversation_id: conversationId,
      message_id: messageId,
      model_id: generation.modelId,
    });
    reply.done = this.run(reply, messageId, generation);
    return { reply_id: replyId, message_id: messageId, conversation };
  }

  /** Replays the reply so far, then follows it; `onEnd` once it is saved. */
  subscribe(replyId: string, onEvent: (event: ReplyEvent) => void, onEnd: () => void): () => void {
    return this.get(replyId).events.subscribe(onEvent, onEnd);
  }

  cancel(replyId: string): { reply_id: string; status: "running" | "finished" } {
    const reply = this.get(replyId);
    if (!reply.finished) reply.controller.abort();
    return { reply_id: replyId, status: reply.finished ? "finished" : "running" };
  }

  /**
   * Stops every running reply (the server is shutting down) and waits until each is saved as
   * stopped: the process exits right after, and a save still in flight would lose the reply.
   */
  async close(): Promise<void> {
    const running = [...this.replies.values()].filter((reply) => !reply.finished);
    for (const reply of running) reply.controller.abort();
    await Promise.allSettled(running.map((reply) => reply.done));
  }

  private get(replyId: string): Reply {
    const reply = this.replies.get(replyId);
    if (!reply)
      throw new PerchError("run_not_found", `No reply with id '${replyId}'.`, { param: "reply_id" });
    return reply;
  }

  private async run(
    reply: Reply,
    messageId: string,
    generation: ReturnType<typeof conversationToGenerationRequest>,
  ): Promise<void> {
    let text = "";
    let reasoning = "";
    const message: ChatMessage = {
      id: messageId,
      role: "assistant",
      content: "",
      created_at: new Date().toISOString(),
      model_id: generation.modelId,
    };
    try {
      const result = await this.options.generate({
        ...generation,
        signal: reply.controller.signal,
        onText: (piece) => {
          text += piece;
          if (piece) this.emit(reply, { type: "text", text: piece });
        },
        onReasoning: (piece) => {
          reasoning += piece;
          if (piece) this.emit(reply, { type: "reasoning", text: piece });
        },
      });
      const stopped = reply.controller.signal.aborted || result.finishReason === "cancelled";
      message.content = stopped ? text : result.text;
      if (stopped ? reasoning : result.reasoning) message.reasoning = stopped ? reasoning : result.reasoning;
      message.finish_reason = stopped ? "cancelled" : result.finishReason;
      const calls = stopped ? [] : (result.toolCalls ?? []);
      if (calls.length > 0) {
        message.tool_calls = calls.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.arguments ?? {}),
        }));
        for (const call of message.tool_calls) this.emit(reply, { type: "tool_call", call });
      }
      message.stats = {
        ttft_ms: round(result.timings.ttftMs),
        generation_tokens_per_second: round(result.timings.generationTokensPerSecond),
        prompt_tokens: result.usage.promptTokens,
        completion_tokens: result.usage.completionTokens,
        total_ms: round(result.timings.totalMs),
      };
    } catch (error) {
      message.content = text;
      if (reasoning) message.reasoning = reasoning;
      if (error instanceof PerchError && error.code === "cancelled") message.finish_reason = "cancelled";
      else {
        message.finish_reason = "error";
        message.error =
          error instanceof PerchError
            ? { code: error.code, message: error.message }
            : { code: "internal_error", message: errorMessage(error) };
      }
    }
    await this.save(reply, message);
  }

  private async save(reply: Reply, message: ChatMessage): Promise<void> {
    try {
      await this.store.update(reply.conversationId, (draft) => {
        draft.messages.push(message);
      });
    } catch (error) {
      // Our disk failed, not the model: the reply is shown, and the error says it was not kept.
      log.error({ err: errorMessage(error), conversation: reply.conversationId }, "could not save a reply");
      message.error = {
        code: "storage_error",
        message: `The reply could not be saved: ${errorMessage(error)}`,
      };
    }
    this.emit(reply, { type: "finished", message });
    reply.finished = true;
    reply.events.end();
    const timer = setTimeout(() => this.replies.delete(reply.id), this.options.keepFinishedMs ?? 300_000);
    timer.unref?.();
  }

  private emit(reply: Reply, event: ReplyEvent): void {
    reply.events.append(event);
  }
}

const round = (value: number) => (Number.isFinite(value) ? Math.round(value * 100) / 100 : 0);
