import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { ChatMessage } from "../../src-shared/contracts/chat.js";
import { EmptyState } from "../components/EmptyState.js";
import { usePerch } from "../store/usePerch.js";
import { ChatMessageView } from "./ChatMessageView.js";
import { useChatSettings } from "./useChatSettings.js";

/** The open conversation, with the streaming reply at its end; follows the reply as it grows. */
export function MessageList() {
  const { t } = useTranslation();
  const conversation = usePerch((state) => state.conversation);
  const live = usePerch((state) => state.liveReply);
  const editMessage = usePerch((state) => state.editMessage);
  const regenerate = usePerch((state) => state.regenerate);
  const { model_id: modelId } = useChatSettings();
  // As the composer's Send: a model deleted since the conversation chose it cannot answer.
  const noModel = usePerch((state) => {
    const model = state.models.find((entry) => entry.id === modelId);
    return model === undefined || model.missing;
  });
  const scroller = useRef<HTMLDivElement>(null);
  const messages = conversation?.messages ?? [];
  const length = messages.length + (live ? live.text.length + live.reasoning.length : 0);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // Follow the reply unless the user scrolled up to read.
    const nearBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 120;
    if (nearBottom || !live) element.scrollTop = element.scrollHeight;
  }, [length, live]);

  const liveMessage: ChatMessage | null = live
    ? {
        id: live.messageId,
        role: "assistant",
        content: live.text,
        reasoning: live.reasoning || undefined,
        created_at: new Date(live.startedAt).toISOString(),
        model_id: live.modelId,
      }
    : null;
  const lastAssistant = messages.at(-1)?.role === "assistant" ? messages.length - 1 : -1;

  return (
    <div className="chat-messages" ref={scroller} data-testid="chat-messages" aria-live="polite">
      {messages.length === 0 && !live ? (
        <EmptyState title={t("chat.empty.title")}>{t("chat.empty.hint")}</EmptyState>
      ) : null}
      {messages.map((message, index) => (
        <ChatMessageView
          key={message.id}
          message={message}
          locked={live !== null}
          noModel={noModel}
          canRegenerate={index === lastAssistant}
          maxTokens={conversation?.sampling?.max_tokens}
          onEdit={message.role === "user" ? (content) => void editMessage(message.id, content) : undefined}
          onRegenerate={() => void regenerate()}
        />
      ))}
      {liveMessage ? <ChatMessageView message={liveMessage} live /> : null}
    </div>
  );
}
