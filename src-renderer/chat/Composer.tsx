import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { modelDisplayName } from "../models/modelDisplayName.js";
import { usePerch } from "../store/usePerch.js";
import { useChatSettings } from "./useChatSettings.js";
import { useFocusWhenLost } from "./useFocusWhenLost.js";

/** The message box: Enter sends, Shift+Enter breaks the line; Stop (or Escape) while a reply streams. */
export function Composer() {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const live = usePerch((state) => state.liveReply);
  const sendMessage = usePerch((state) => state.sendMessage);
  const stopReply = usePerch((state) => state.stopReply);
  const { model_id: modelId } = useChatSettings();
  const model = usePerch((state) => state.models.find((entry) => entry.id === modelId));
  const optionErrors = usePerch((state) => state.chatOptionErrors);
  const box = useRef<HTMLTextAreaElement>(null);
  const streaming = live !== null;
  // A reply starting or ending swaps Send and Stop, and Regenerate or an edit's Save and send
  // removes the message its button was on: the focus those buttons had comes to the message box.
  useFocusWhenLost(box, streaming);
  // A model deleted since the conversation chose it cannot answer: pick another first.
  const canSend =
    text.trim().length > 0 && model !== undefined && !model.missing && !live && optionErrors.length === 0;

  const send = () => {
    if (!canSend) return;
    const message = text;
    setText("");
    // Not taken (server down, a reply still running): the message comes back to the box, unless
    // something new was typed meanwhile.
    void sendMessage(message).then((taken) => {
      if (!taken) setText((current) => (current === "" ? message : current));
    });
  };

  return (
    <form
      className="composer"
      data-testid="chat-composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        ref={box}
        value={text}
        rows={2}
        placeholder={
          model
            ? t("chat.placeholder", { model: shortName(modelDisplayName(model)) })
            : t("chat.pickModelFirst")
        }
        aria-label={t("chat.message")}
        title={t("chat.keysHint")}
        aria-description={t("chat.keysHint")}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
          // As in other chat apps: Escape in the box stops the reply that is streaming.
          if (event.key === "Escape" && live && !live.stopping) {
            event.preventDefault();
            void stopReply();
          }
        }}
        data-testid="chat-input"
      />
      {optionErrors.length > 0 ? (
        <p className="field-error composer-blocked" role="alert" data-testid="chat-options-invalid">
          {t("chat.optionsInvalid")}
        </p>
      ) : null}
      {live ? (
        // Keyed apart: React would otherwise turn the focused Stop into Send in place.
        <button
          key="stop"
          type="button"
          className="button button-danger composer-button"
          disabled={live.stopping}
          onClick={() => void stopReply()}
          title={t("chat.stopHint")}
          data-testid="chat-stop"
        >
          {live.stopping ? t("chat.stopping") : t("chat.stop")}
        </button>
      ) : (
        <button
          key="send"
          type="submit"
          className="button button-primary composer-button"
          disabled={!canSend}
          data-testid="chat-send"
        >
          {t("chat.send")}
        </button>
      )}
    </form>
  );
}

/** The placeholder keeps to one line: a model name past 32 characters is cut (the toolbar names it whole). */
function shortName(name: string): string {
  return name.length > 32 ? `${name.slice(0, 31).trimEnd()}…` : name;
}
