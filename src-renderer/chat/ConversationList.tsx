import { useRef, useState } from "react";
import { useFocusWhenClosed } from "../components/useFocusWhenClosed.js";
import { useTranslation } from "react-i18next";
import type { ConversationSummary } from "../../src-shared/contracts/chat.js";
import { saveFile } from "../benchmarks/saveFile.js";
import { ActionMenu } from "../components/ActionMenu.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { formatDate } from "../format/formatDate.js";
import { isComposing } from "../components/isComposing.js";
import { usePerch } from "../store/usePerch.js";

/** Saved conversations, newest first: open, rename, export as Markdown, delete. */
export function ConversationList() {
  const { t } = useTranslation();
  const conversations = usePerch((state) => state.conversations);
  const openId = usePerch((state) => state.conversation?.id);
  const busy = usePerch((state) => state.liveReply !== null);
  const startNewChat = usePerch((state) => state.startNewChat);
  const [deleting, setDeleting] = useState<ConversationSummary | null>(null);
  const deleteConversation = usePerch((state) => state.deleteConversation);
  const newChat = useRef<HTMLButtonElement>(null);

  return (
    <nav className="conversation-list" aria-label={t("chat.conversations")}>
      <button
        type="button"
        className="button button-primary conversation-new"
        disabled={busy}
        onClick={startNewChat}
        ref={newChat}
        data-testid="chat-new"
      >
        {t("chat.newChat")}
      </button>
      {conversations.length === 0 ? (
        <p className="muted conversation-empty">{t("chat.noConversations")}</p>
      ) : null}
      <ul>
        {conversations.map((entry) => (
          <ConversationItem
            key={entry.id}
            entry={entry}
            active={entry.id === openId}
            disabled={busy}
            onDelete={() => setDeleting(entry)}
          />
        ))}
      </ul>
      {deleting ? (
        <ConfirmDialog
          title={t("chat.delete.title", { title: deleting.title })}
          message={t("chat.delete.message", { count: deleting.message_count })}
          confirmLabel={t("chat.delete.confirm")}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            // The deleted one's ⋯ button is gone with it: the focus goes to "New chat", at the list's top.
            void deleteConversation(deleting.id).then(() => newChat.current?.focus());
            setDeleting(null);
          }}
        />
      ) : null}
    </nav>
  );
}

function ConversationItem({
  entry,
  active,
  disabled,
  onDelete,
}: {
  entry: ConversationSummary;
  active: boolean;
  disabled: boolean;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const openConversation = usePerch((state) => state.openConversation);
  const updateConversation = usePerch((state) => state.updateConversation);
  const exportConversation = usePerch((state) => state.exportConversation);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(entry.title);
  const openButton = useRef<HTMLButtonElement>(null);
  // Leaving the rename box (Enter, Escape) gives the focus back to the conversation.
  useFocusWhenClosed(renaming, openButton);

  const rename = () => {
    setRenaming(false);
    const trimmed = title.trim();
    if (trimmed && trimmed !== entry.title) void updateConversation({ title: trimmed }, entry.id);
    else setTitle(entry.title);
  };

  return (
    <li className={active ? "conversation-item active" : "conversation-item"} data-testid="conversation-item">
      {renaming ? (
        <input
          className="conversation-rename"
          value={title}
          autoFocus
          maxLength={200}
          aria-label={t("chat.rename")}
          onChange={(event) => setTitle(event.target.value)}
          onBlur={rename}
          onKeyDown={(event) => {
            if (isComposing(event)) return;
            if (event.key === "Enter") rename();
            if (event.key === "Escape") {
              setTitle(entry.title);
              setRenaming(false);
            }
          }}
          data-testid="conversation-rename"
        />
      ) : (
        <button
          type="button"
          className="conversation-open"
          ref={openButton}
          disabled={disabled}
          aria-current={active ? "true" : undefined}
          onClick={() => void openConversation(entry.id)}
          title={entry.title}
        >
          <span className="conversation-title">{entry.title}</span>
          <span className="conversation-meta">{formatDate(entry.updated_at, i18n.language)}</span>
        </button>
      )}
      <ActionMenu
        label={t("chat.more")}
        testId="conversation-menu"
        actions={[
          {
            label: t("chat.rename"),
            onSelect: () => setRenaming(true),
            testId: "conversation-action-rename",
          },
          {
            label: t("chat.export"),
            testId: "conversation-action-export",
            onSelect: () =>
              void exportConversation(entry.id).then(
                (file) => file && saveFile(file.filename, file.markdown, "text/markdown"),
              ),
          },
          {
            label: t("chat.delete.action"),
            danger: true,
            onSelect: onDelete,
            testId: "conversation-action-delete",
          },
        ]}
      />
    </li>
  );
}
