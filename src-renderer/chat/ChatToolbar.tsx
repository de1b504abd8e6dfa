import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { modelChoiceLabels } from "../models/modelDisplayName.js";
import { isHelperModel, pickDefaultModel } from "../models/pickDefaultModel.js";
import { usePerch } from "../store/usePerch.js";
import { useChatSettings } from "./useChatSettings.js";

/** Model picker (loaded or not), the options toggle, and the open conversation's title. */
export function ChatToolbar() {
  const { t } = useTranslation();
  const models = usePerch((state) => state.models);
  const conversation = usePerch((state) => state.conversation);
  const busy = usePerch((state) => state.liveReply !== null);
  const setChatSettings = usePerch((state) => state.setChatSettings);
  const optionsOpen = usePerch((state) => state.chatOptionsOpen);
  const toggleOptions = usePerch((state) => state.toggleChatOptions);
  const comparing = usePerch((state) => state.compareOpen);
  const toggleCompare = usePerch((state) => state.toggleCompare);
  const { model_id: modelId } = useChatSettings();
  const fallback = pickDefaultModel(models)?.id;

  // A chat without a model starts on the default one (never a draft or embedding model).
  useEffect(() => {
    if (!modelId && fallback) void setChatSettings({ model_id: fallback });
  }, [modelId, fallback, setChatSettings]);

  const present = models.filter((model) => !model.missing || model.id === modelId);
  const labels = modelChoiceLabels(present);
  return (
    <div className="chat-toolbar" data-testid="chat-toolbar">
      <label className="chat-model">
        <span className="field-label">{t("chat.model")}</span>
        <select
          value={modelId ?? ""}
          disabled={busy}
          onChange={(event) => void setChatSettings({ model_id: event.target.value || null })}
          data-testid="chat-model"
        >
          {modelId ? null : <option value="">{t("chat.pickModel")}</option>}
          {/* A model deleted since: shown as the conversation's, so picking any other one is a change. */}
          {modelId && !models.some((model) => model.id === modelId) ? (
            <option value={modelId} disabled>
              {t("chat.modelGone", { model: modelId })}
            </option>
          ) : null}
          {present.map((model) => (
            <option key={model.id} value={model.id}>
              {labels.get(model.id)}
              {model.load.state === "loaded" ? ` · ${t("chat.loaded")}` : ""}
              {isHelperModel(model, models) ? ` · ${t("chat.helperModel")}` : ""}
            </option>
          ))}
        </select>
      </label>
      <span className="chat-title" title={conversation?.title}>
        {conversation?.title ?? t("chat.newChat")}
      </span>
      <button
        type="button"
        className={comparing ? "button button-small button-pressed" : "button button-small"}
        aria-pressed={comparing}
        onClick={toggleCompare}
        data-testid="chat-compare-toggle"
      >
        {t("chat.compare.toggle")}
      </button>
      <button
        type="button"
        className={optionsOpen ? "button button-small button-pressed" : "button button-small"}
        aria-expanded={optionsOpen}
        onClick={toggleOptions}
        data-testid="chat-options-toggle"
      >
        {t("chat.options")}
      </button>
    </div>
  );
}
