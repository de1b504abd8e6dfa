import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
import { useChatSettings } from "./useChatSettings.js";

const example = `{
  "type": "object",
  "properties": { "answer": { "type": "string" } },
  "required": ["answer"]
}`;

/** JSON-schema mode: when on, replies are constrained to the schema (checked as JSON here first). */
export function JsonSchemaField() {
  const { t } = useTranslation();
  const { json_schema: saved } = useChatSettings();
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
      if (saved !== null) void setChatSettings({ json_schema: null });
      return;
    }
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error(t("chat.json.notObject"));
      setError(null);
      if (value !== saved) void setChatSettings({ json_schema: value });
    } catch (failure) {
      setError(
        t("chat.json.invalid", { message: failure instanceof Error ? failure.message : String(failure) }),
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
          data-testid="chat-json-mode"
        />
        <span>{t("chat.json.label")}</span>
      </label>
      {on ? (
        <textarea
          rows={5}
          className="mono"
          value={text}
          spellCheck={false}
          onChange={(event) => setText(event.target.value)}
          onBlur={() => save(true, text)}
          aria-label={t("chat.json.label")}
          aria-invalid={error ? true : undefined}
          data-testid="chat-json-schema"
        />
      ) : null}
      {error ? (
        <span className="field-error">{error}</span>
      ) : (
        <span className="field-hint">{t("chat.json.hint")}</span>
      )}
    </div>
  );
}
