import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
import { JsonTextField } from "./JsonTextField.js";
import { useChatSettings } from "./useChatSettings.js";

const example = `[
  {
    "type": "function",
    "function": {
      "name": "get_weather",
      "description": "Current weather in a city",
      "parameters": {
        "type": "object",
        "properties": { "city": { "type": "string" } },
        "required": ["city"]
      }
    }
  }
]`;

/** Tools offered to the model (checked as a JSON array here first), and whether a call is required. */
export function ToolsField() {
  const { t } = useTranslation();
  const { tools: saved, tool_choice: choice } = useChatSettings();
  const setChatSettings = usePerch((state) => state.setChatSettings);
  return (
    <JsonTextField
      saved={saved}
      example={example}
      check={(value) => {
        if (!Array.isArray(value) || value.length === 0) throw new Error(t("chat.tools.notArray"));
      }}
      onSave={(value) => void setChatSettings({ tools: value })}
      label={t("chat.tools.label")}
      hint={t("chat.tools.hint")}
      invalidKey="chat.tools.invalid"
      testIds={{ toggle: "chat-tools-mode", text: "chat-tools" }}
      rows={6}
    >
      <label className="field-checkbox">
        <input
          type="checkbox"
          checked={choice === "required"}
          onChange={(event) =>
            void setChatSettings({ tool_choice: event.target.checked ? "required" : "auto" })
          }
          data-testid="chat-tools-required"
        />
        <span>{t("chat.tools.required")}</span>
      </label>
    </JsonTextField>
  );
}
