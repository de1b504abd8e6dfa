import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
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
  const [on, setOn] = useState(saved !== null);
  const [text, setText] = useState(saved ?? example);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setOn(saved !== null);
    if (saved !== null) setText(saved);
  }, [saved]);

  const save = (enabled: boolean, value: string) => {
    if (!enabled) {
      setError(null);
      if (saved !== null) void setChatSettings({ tools: null });
      return;
    }
    try {
      const parsed: unknown = JSON.parse(value);
      if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(t("chat.tools.notArray"));
      setError(null);
      if (value !== saved) void setChatSettings({ tools: value });
    } catch (failure) {
      setError(
        t("chat.tools.invalid", { message: failure instanceof Error ? failure.message : String(failure) }),
      );
    }
  };

  return (
    <div className={error ? "field field-invalid chat-json" : "field chat-json"}>
      <label className="field-checkbox">
        <input
          type="checkbox"
          checked={on}
          onChange={(event) => {
            setOn(event.target.checked);
            save(event.target.checked, text);
          }}
          data-testid="chat-tools-mode"
        />
        <span>{t("chat.tools.label")}</span>
      </label>
      {on ? (
        <>
          <textarea
            rows={6}
            className="mono"
            value={text}
            spellCheck={false}
            onChange={(event) => setText(event.target.value)}
            onBlur={() => save(true, text)}
            aria-label={t("chat.tools.label")}
            aria-invalid={error ? true : undefined}
            data-testid="chat-tools"
          />
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
        </>
      ) : null}
      {error ? (
        <span className="field-error">{error}</span>
      ) : (
        <span className="field-hint">{t("chat.tools.hint")}</span>
      )}
    </div>
  );
}
