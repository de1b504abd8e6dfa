import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ErrorNote } from "../components/ErrorNote.js";
import { usePerch } from "../store/usePerch.js";
import { ChatOptions } from "./ChatOptions.js";
import { ChatToolbar } from "./ChatToolbar.js";
import { ComparePanel } from "./ComparePanel.js";
import { Composer } from "./Composer.js";
import { ConversationList } from "./ConversationList.js";
import { MessageList } from "./MessageList.js";

/** Try a model: conversations on the left, the open one on the right, its options beside it. */
export function ChatPage() {
  const { t } = useTranslation();
  const loadConversations = usePerch((state) => state.loadConversations);
  const error = usePerch((state) => state.chatError);
  const showOptions = usePerch((state) => state.chatOptionsOpen);
  const comparing = usePerch((state) => state.compareOpen);

  useEffect(() => {
    void loadConversations();
  }, [loadConversations]);

  return (
    <div className="page chat-page" data-testid="chat-page">
      <h1 className="visually-hidden">{t("chat.title")}</h1>
      <ConversationList />
      <section className="chat-main" aria-label={t("chat.title")}>
        <ChatToolbar />
        <ErrorNote error={error} testId="chat-error" />
        {/* Messages and options share one box: side by side in a wide window, stacked (options
            first) in a narrow one, so the options never cover the conversation. */}
        <div className="chat-body">
          {comparing ? <ComparePanel /> : <MessageList />}
          {showOptions ? <ChatOptions /> : null}
        </div>
        {comparing ? null : <Composer />}
      </section>
    </div>
  );
}
