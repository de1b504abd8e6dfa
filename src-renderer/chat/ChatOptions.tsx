import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
import { JsonSchemaField } from "./JsonSchemaField.js";
import { ToolsField } from "./ToolsField.js";
import { SamplingControls } from "./SamplingControls.js";
import { useChatSettings } from "./useChatSettings.js";

/** System prompt, sampling, thinking and JSON-schema mode of the conversation (saved on change). */
export function ChatOptions() {
  const { t } = useTranslation();
  const settings = useChatSettings();
  const setChatSettings = usePerch((state) => state.setChatSettings);
  const [system, setSystem] = useState(settings.system_prompt);
  useEffect(() => setSystem(settings.system_prompt), [settings.system_prompt]);

  return (
    <div className="chat-options" data-testid="chat-options">
      <label className="field chat-system">
        <span className="field-label">{t("chat.systemPrompt")}</span>
        <textarea
          rows={3}
          value={system}
          placeholder={t("chat.systemPlaceholder")}
          onChange={(event) => setSystem(event.target.value)}
          onBlur={() => system !== settings.system_prompt && void setChatSettings({ system_prompt: system })}
          data-testid="chat-system-prompt"
        />
      </label>
      <SamplingControls />
      <div className="field-grid chat-thinking">
        <label className="field">
          <span className="field-label">{t("chat.thinking.label")}</span>
          <select
            value={settings.thinking === null ? "auto" : settings.thinking ? "on" : "off"}
            onChange={(event) =>
              void setChatSettings({
                thinking: event.target.value === "auto" ? null : event.target.value === "on",
              })
            }
            data-testid="chat-thinking"
          >
            <option value="auto">{t("chat.thinking.auto")}</option>
            <option value="on">{t("chat.thinking.on")}</option>
            <option value="off">{t("chat.thinking.off")}</option>
          </select>
          <span className="field-hint">{t("chat.thinking.hint")}</span>
        </label>
      </div>
      <JsonSchemaField />
      <ToolsField />
    </div>
  );
}
