import { useRef, useState } from "react";
import { useFocusWhenClosed } from "../components/useFocusWhenClosed.js";
import { useTranslation } from "react-i18next";
import type { ChatMessage } from "../../src-shared/contracts/chat.js";
import { MarkdownView } from "./MarkdownView.js";
import { replyFailureKey } from "./replyFailureKey.js";
import { ReplyStats } from "./ReplyStats.js";
import { ToolCallList } from "./ToolCallList.js";

interface ChatMessageViewProps {
  message: ChatMessage;
  /** Streaming: the reply is still being generated. */
  live?: boolean;
  /** The last reply of the conversation can be regenerated. */
  canRegenerate?: boolean;
  /** Editing and regenerating are off while a reply streams. */
  locked?: boolean;
  /**
   * The conversation's model cannot answer (deleted, or none picked): Regenerate and "Save and
   * send" are off, as Send is, since either drops the replies after it first.
   */
  noModel?: boolean;
  /** The conversation's "Max tokens": a reply cut off short of it filled the context instead. */
  maxTokens?: number;
  onEdit?: (content: string) => void;
  onRegenerate?: () => void;
}

/** One message: Markdown, folded reasoning, the reply's numbers, and its actions. */
export function ChatMessageView({
  message,
  live,
  canRegenerate,
  locked,
  noModel,
  maxTokens,
  onEdit,
  onRegenerate,
}: ChatMessageViewProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.content);
  const user = message.role === "user";
  const editButton = useRef<HTMLButtonElement>(null);
  // Leaving the edit box (Escape, Cancel) gives the focus back to Edit, not to the page.
  useFocusWhenClosed(editing, editButton);

  return (
    <article
      className={user ? "chat-message chat-message-user" : "chat-message chat-message-assistant"}
      data-testid={live ? "chat-live-reply" : `chat-message-${message.role}`}
      aria-busy={live ? true : undefined}
    >
      {message.reasoning ? (
        <details
          className="reasoning"
          open={live && !message.content ? true : undefined}
          data-testid="chat-reasoning"
        >
          <summary>{live && !message.content ? t("chat.reasoningLive") : t("chat.reasoning")}</summary>
          <div className="reasoning-text">{message.reasoning}</div>
        </details>
      ) : null}
      {editing ? (
        <div className="chat-edit">
          <textarea
            value={draft}
            rows={4}
            // Edit was asked for from a button: the text to edit takes the focus.
            autoFocus
            onFocus={(event) => {
              const end = event.currentTarget.value.length;
              event.currentTarget.setSelectionRange(end, end);
            }}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              // Escape leaves the edit (as Cancel); the dialog-less page has nothing else to close.
              if (event.key === "Escape") setEditing(false);
            }}
            data-testid="chat-edit-input"
          />
          <div className="toolbar">
            <button type="button" className="button button-small" onClick={() => setEditing(false)}>
              {t("common.cancel")}
            </button>
            <button
              type="button"
              className="button button-small button-primary"
              disabled={!draft.trim() || locked || noModel}
              title={noModel ? t("chat.failure.modelNotFound") : undefined}
              onClick={() => {
                setEditing(false);
                onEdit?.(draft);
              }}
              data-testid="chat-edit-send"
            >
              {t("chat.saveAndSend")}
            </button>
          </div>
        </div>
      ) : user ? (
        <div className="chat-user-text">{message.content}</div>
      ) : message.content ? (
        <MarkdownView text={message.content} />
      ) : live && !message.reasoning ? (
        <span className="typing" aria-label={t("chat.generating")} />
      ) : null}
      {message.tool_calls?.length ? <ToolCallList calls={message.tool_calls} /> : null}
      {message.error ? (
        <p className="chat-failure" role="alert" data-testid="chat-failure">
          {t(replyFailureKey(message.error.code), { message: message.error.message })}
        </p>
      ) : null}
      {message.finish_reason === "cancelled" ? <p className="chat-note">{t("chat.stopped")}</p> : null}
      {message.finish_reason === "length" ? (
        <p className="chat-note">{t(cutOffKey(message, maxTokens))}</p>
      ) : null}
      <footer className="chat-message-footer">
        {message.stats ? <ReplyStats stats={message.stats} /> : null}
        {!live && !editing ? (
          <div className="chat-message-actions">
            <button
              type="button"
              className="link-button"
              onClick={() => void navigator.clipboard?.writeText(message.content)}
            >
              {t("chat.copy")}
            </button>
            {user && onEdit ? (
              <button
                type="button"
                className="link-button"
                disabled={locked}
                onClick={() => {
                  setDraft(message.content);
                  setEditing(true);
                }}
                ref={editButton}
                data-testid="chat-edit"
              >
                {t("chat.edit")}
              </button>
            ) : null}
            {canRegenerate ? (
              <button
                type="button"
                className="link-button"
                disabled={locked || noModel}
                title={noModel ? t("chat.failure.modelNotFound") : undefined}
                onClick={onRegenerate}
                data-testid="chat-regenerate"
              >
                {t("chat.regenerate")}
              </button>
            ) : null}
          </div>
        ) : null}
      </footer>
    </article>
  );
}

/**
 * Why a reply stopped at `length`: at its "Max tokens", or (no limit set, or fewer tokens than it)
 * because the conversation filled the model's context, which a higher limit would not change.
 */
export function cutOffKey(message: ChatMessage, maxTokens: number | undefined): string {
  const tokens = message.stats?.completion_tokens;
  const atLimit = maxTokens !== undefined && (tokens === undefined || tokens >= maxTokens);
  return atLimit ? "chat.truncated" : "chat.contextFull";
}
