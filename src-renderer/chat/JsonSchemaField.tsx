import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
import { JsonTextField } from "./JsonTextField.js";
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
  return (
    <JsonTextField
      saved={saved}
      example={example}
      check={(value) => {
        if (typeof value !== "object" || value === null || Array.isArray(value))
          throw new Error(t("chat.json.notObject"));
      }}
      onSave={(value) => void setChatSettings({ json_schema: value })}
      label={t("chat.json.label")}
      hint={t("chat.json.hint")}
      invalidKey="chat.json.invalid"
      testIds={{ toggle: "chat-json-mode", text: "chat-json-schema" }}
    />
  );
}
