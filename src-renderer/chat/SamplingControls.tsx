import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { chatSamplingSchema, type ChatSampling } from "../../src-shared/contracts/chat.js";
import { NumberField } from "../settings/NumberField.js";
import { usePerch } from "../store/usePerch.js";
import { useChatSettings } from "./useChatSettings.js";
import { parseDecimal } from "../format/parseDecimal.js";
import { fieldIssueOf, issueMessage } from "../i18n/issueMessage.js";

type Key = keyof ChatSampling;
const fields: { key: Key; step: string }[] = [
  { key: "temperature", step: "0.05" },
  { key: "top_p", step: "0.05" },
  { key: "top_k", step: "1" },
  { key: "min_p", step: "0.01" },
  { key: "repetition_penalty", step: "0.05" },
  { key: "max_tokens", step: "1" },
  { key: "seed", step: "1" },
];

/**
 * Sampling for this conversation. An empty field uses the model's own setting, which the
 * placeholder shows (else llama.cpp's default); each value is checked against the contract.
 */
export function SamplingControls() {
  const { t, i18n } = useTranslation();
  const { sampling, model_id: modelId } = useChatSettings();
  const model = usePerch((state) => state.models.find((entry) => entry.id === modelId));
  const setChatSettings = usePerch((state) => state.setChatSettings);
  const setChatOptionError = usePerch((state) => state.setChatOptionError);
  const [text, setText] = useState<Partial<Record<Key, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});

  // Refilled only when the saved values change (another conversation opened), not per keystroke.
  const savedKey = JSON.stringify(sampling);
  useEffect(() => {
    const saved = JSON.parse(savedKey) as ChatSampling;
    setText(Object.fromEntries(fields.map(({ key }) => [key, saved[key]?.toString() ?? ""])));
    // The saved values are valid: what was marked belonged to the text now replaced.
    setErrors({});
    for (const { key } of fields) setChatOptionError(`sampling.${key}`, false);
  }, [savedKey, setChatOptionError]);
  // Closing the options drops the text typed there: the saved values, valid, apply again.
  useEffect(
    () => () => {
      for (const { key } of fields) setChatOptionError(`sampling.${key}`, false);
    },
    [setChatOptionError],
  );

  const commit = (key: Key) => {
    const raw = (text[key] ?? "").trim();
    const next: Record<string, number | undefined> = {
      ...sampling,
      [key]: parseDecimal(raw),
    };
    const checked = chatSamplingSchema.safeParse(next);
    const issue = checked.success ? undefined : checked.error.issues.find((entry) => entry.path[0] === key);
    setErrors({
      ...errors,
      [key]: issue ? issueMessage(fieldIssueOf(issue), issue.message, t, i18n.language) : undefined,
    });
    setChatOptionError(`sampling.${key}`, issue !== undefined);
    if (checked.success && sampling[key] !== next[key]) void setChatSettings({ sampling: checked.data });
  };

  // The model's settings have no seed; every other field has a model-level default.
  const modelValue = (key: Key): number | undefined =>
    key === "seed" ? undefined : model?.settings.sampling?.[key];

  return (
    <div className="field-grid chat-sampling">
      {fields.map(({ key, step }) => {
        const fromModel = modelValue(key);
        return (
          <NumberField
            key={key}
            label={t(`chat.sampling.${key}`)}
            value={text[key] ?? ""}
            step={step}
            placeholder={
              fromModel !== undefined
                ? t("chat.sampling.fromModel", { value: fromModel })
                : t("chat.sampling.default")
            }
            error={errors[key]}
            onChange={(value) => setText({ ...text, [key]: value })}
            testId={`chat-sampling-${key}`}
            onBlur={() => commit(key)}
          />
        );
      })}
    </div>
  );
}
