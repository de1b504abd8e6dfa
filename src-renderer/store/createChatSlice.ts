import type {
  ChatMessage,
  Conversation,
  ConversationPatch,
  ConversationSummary,
  ReplyRequest,
  RunningReply,
} from "../../src-shared/contracts/chat.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { SliceCreator } from "./PerchState.js";

/** The reply being generated, as it streams in (it becomes a saved message when it ends). */
export interface LiveReply {
  replyId: string;
  messageId: string;
  modelId: string;
  text: string;
  reasoning: string;
  startedAt: number;
  /** When the first piece (text or reasoning) arrived. */
  firstTokenAt: number | null;
  stopping: boolean;
}

export interface ChatSlice {
  conversations: ConversationSummary[];
  conversation: Conversation | null;
  liveReply: LiveReply | null;
  chatError: ErrorInfo | null;
  chatOptionsOpen: boolean;
  toggleChatOptions(): void;
  /**
   * Chat options whose text on screen is not valid (a sampling field, a JSON schema): the reply
   * would use other settings than the ones shown, so the composer does not send meanwhile.
   */
  chatOptionErrors: string[];
  setChatOptionError(option: string, invalid: boolean): void;
  /** Settings for the next new conversation (while none is open). */
  chatDraft: ConversationPatch;
  /** Changes the open conversation's settings (saved at once), or the draft when none is open. */
  setChatSettings(patch: ConversationPatch): Promise<ErrorInfo | null>;
  /** Closes the open conversation: the next message starts a new one with the draft's settings. */
  startNewChat(): void;
  loadConversations(): Promise<void>;
  openConversation(id: string): Promise<void>;
  /**
   * The server answers again after being unreachable (a restart): the "not answering" notice
   * goes and the open conversation is read again, so a reply the restart cut shows as saved.
   */
  chatReconnected(): Promise<void>;
  /** Starts a conversation with the given settings (model, system prompt...) and opens it. */
  newConversation(patch?: ConversationPatch): Promise<Conversation | null>;
  /** Saves settings of the open conversation (model, system prompt, sampling, schema, title). */
  updateConversation(patch: ConversationPatch, id?: string): Promise<ErrorInfo | null>;
  deleteConversation(id: string): Promise<void>;
  exportConversation(id: string): Promise<{ filename: string; markdown: string } | null>;
  /** Resolves whether the server took the message (on false the composer gives the text back). */
  sendMessage(content: string): Promise<boolean>;
  editMessage(messageId: string, content: string): Promise<void>;
  regenerate(): Promise<void>;
  stopReply(): Promise<void>;
}

export const createChatSlice: SliceCreator<ChatSlice> = (set, get, { client, now }) => {
  let closeStream: (() => void) | null = null;

  const summaryOf = (conversation: Conversation): ConversationSummary => ({
    id: conversation.id,
    title: conversation.title,
    created_at: conversation.created_at,
    updated_at: conversation.updated_at,
    model_id: conversation.model_id,
    message_count: conversation.messages.length,
  });

  /** Puts the conversation first in the list (it changed last) and shows it if open. */
  const remember = (conversation: Conversation) => {
    const rest = get().conversations.filter((entry) => entry.id !== conversation.id);
    const open = get().conversation;
    set({
      conversations: [summaryOf(conversation), ...rest],
      conversation: !open || open.id === conversation.id ? conversation : open,
    });
  };

  const finish = (conversationId: string, message: ChatMessage) => {
    closeStream?.();
    closeStream = null;
    const open = get().conversation;
    if (open?.id === conversationId) {
      remember({ ...open, messages: [...open.messages, message], updated_at: new Date(now()).toISOString() });
    }
    set({ liveReply: null });
  };

  /**
   * Shows a running reply as it streams and adds it to the conversation when it finishes. Its
   * stream replays from the first event, so a page that opens the conversation later (a reload)
   * catches up and can stop it.
   */
  const follow = (conversationId: string, running: RunningReply) => {
    set({
      liveReply: {
        replyId: running.reply_id,
        messageId: running.message_id,
        modelId: running.model_id,
        text: "",
        reasoning: "",
        startedAt: now(),
        firstTokenAt: null,
        stopping: false,
      },
    });
    closeStream?.();
    closeStream = client.subscribe(
      "chatReply",
      { reply_id: running.reply_id },
      {
        onEvent(event) {
          const live = get().liveReply;
          if (!live || live.replyId !== running.reply_id) return;
          if (event.type === "text" || event.type === "reasoning") {
            const key = event.type === "text" ? "text" : "reasoning";
            set({
              liveReply: {
                ...live,
                [key]: live[key] + event.text,
                firstTokenAt: live.firstTokenAt ?? now(),
              },
            });
          } else if (event.type === "finished") finish(conversationId, event.message);
        },
        onError(error) {
          set({ chatError: toErrorInfo(error), liveReply: null });
          void get().openConversation(conversationId);
        },
      },
    );
  };

  /** Starts a reply; resolves whether the server took it (a failure is in `chatError`). */
  const reply = async (request: ReplyRequest): Promise<boolean> => {
    if (get().liveReply) return false;
    const conversation =
      get().conversation ?? (request.action === "send" ? await get().newConversation(get().chatDraft) : null);
    if (!conversation) return false;
    set({ chatError: null });
    try {
      const started = await client.request("startReply", {
        params: { conversation_id: conversation.id },
        body: request,
      });
      remember(started.conversation);
      follow(conversation.id, {
        reply_id: started.reply_id,
        message_id: started.message_id,
        model_id: started.conversation.model_id ?? "",
      });
      return true;
    } catch (error) {
      set({ chatError: toErrorInfo(error) });
      return false;
    }
  };

  return {
    conversations: [],
    conversation: null,
    liveReply: null,
    chatError: null,
    chatDraft: {},
    chatOptionsOpen: false,
    toggleChatOptions: () => set({ chatOptionsOpen: !get().chatOptionsOpen }),
    chatOptionErrors: [],
    setChatOptionError: (option, invalid) => {
      const others = get().chatOptionErrors.filter((entry) => entry !== option);
      if (invalid || others.length !== get().chatOptionErrors.length)
        set({ chatOptionErrors: invalid ? [...others, option] : others });
    },

    async setChatSettings(patch) {
      const open = get().conversation;
      if (!open) {
        set({ chatDraft: { ...get().chatDraft, ...patch } });
        return null;
      }
      // Shown at once; the saved copy replaces it (or the error says why it was refused).
      set({ conversation: { ...open, ...patch } as Conversation });
      return get().updateConversation(patch, open.id);
    },

    startNewChat() {
      const open = get().conversation;
      set({
        conversation: null,
        chatError: null,
        chatDraft: open
          ? {
              model_id: open.model_id,
              system_prompt: open.system_prompt,
              sampling: open.sampling,
              thinking: open.thinking,
              json_schema: open.json_schema,
              tools: open.tools ?? null,
              tool_choice: open.tool_choice ?? "auto",
            }
          : get().chatDraft,
      });
    },

    async loadConversations() {
      try {
        const { conversations } = await client.request("listConversations");
        set({ conversations });
      } catch (error) {
        set({ chatError: toErrorInfo(error) });
      }
    },

    async openConversation(id) {
      try {
        const { running_reply: running, ...conversation } = await client.request("getConversation", {
          params: { conversation_id: id },
        });
        set({ conversation, chatError: null });
        // A reply still generating (the page was reloaded meanwhile): follow it, with its Stop.
        if (running && get().liveReply?.replyId !== running.reply_id) follow(id, running);
      } catch (error) {
        set({ chatError: toErrorInfo(error) });
      }
    },

    async chatReconnected() {
      if (get().chatError?.code !== "network_error") return;
      set({ chatError: null });
      const open = get().conversation;
      await Promise.all([get().loadConversations(), open ? get().openConversation(open.id) : undefined]);
    },

    async newConversation(patch = {}) {
      try {
        const conversation = await client.request("createConversation", { body: patch });
        remember(conversation);
        set({ conversation, chatError: null });
        return conversation;
      } catch (error) {
        set({ chatError: toErrorInfo(error) });
        return null;
      }
    },

    async updateConversation(patch, id) {
      const target = id ?? get().conversation?.id;
      if (!target) return null;
      try {
        const conversation = await client.request("updateConversation", {
          params: { conversation_id: target },
          body: patch,
        });
        remember(conversation);
        return null;
      } catch (error) {
        const info = toErrorInfo(error);
        set({ chatError: info });
        return info;
      }
    },

    async deleteConversation(id) {
      try {
        await client.request("deleteConversation", { params: { conversation_id: id } });
        set({
          conversations: get().conversations.filter((entry) => entry.id !== id),
          conversation: get().conversation?.id === id ? null : get().conversation,
        });
      } catch (error) {
        set({ chatError: toErrorInfo(error) });
      }
    },

    async exportConversation(id) {
      try {
        return await client.request("exportConversation", { params: { conversation_id: id } });
      } catch (error) {
        set({ chatError: toErrorInfo(error) });
        return null;
      }
    },

    sendMessage: (content) => reply({ action: "send", content }),
    editMessage: async (messageId, content) => {
      await reply({ action: "edit", message_id: messageId, content });
    },
    regenerate: async () => {
      await reply({ action: "regenerate" });
    },

    async stopReply() {
      const live = get().liveReply;
      if (!live || live.stopping) return;
      set({ liveReply: { ...live, stopping: true } });
      try {
        await client.request("cancelReply", { params: { reply_id: live.replyId } });
      } catch (error) {
        set({ chatError: toErrorInfo(error) });
      }
    },
  };
};
