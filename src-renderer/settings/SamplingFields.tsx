import { useTranslation } from "react-i18next";
import { samplingDefaults } from "../../src-shared/contracts/modelDefaults.js";
import { NumberField } from "./NumberField.js";
import type { FieldErrorLookup } from "./SettingsModal.js";
import { samplingKeys, type SettingsDraft } from "./SettingsDraft.js";

interface SectionProps {
  draft: SettingsDraft;
  update: (patch: Partial<SettingsDraft>) => void;
  errorAt: FieldErrorLookup;
}

export function SamplingFields({ draft, update, errorAt }: SectionProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="fieldset">
      <legend>{t("settings.sections.sampling")}</legend>
      <div className="field-grid">
        {samplingKeys.map((key) => (
          <NumberField
            key={key}
            label={t(`settings.sampling.${key}`)}
            value={draft.sampling[key]}
            placeholder={
              key === "max_tokens"
                ? t("settings.defaultMaxTokens")
                : t("settings.defaultValue", { value: samplingDefaults[key] })
            }
            step={key === "top_k" || key === "max_tokens" ? "1" : "0.01"}
            error={errorAt(`sampling.${key}`)}
            testId={`settings-${key}`}
            onChange={(value) => update({ sampling: { ...draft.sampling, [key]: value } })}
          />
        ))}
      </div>
    </fieldset>
  );
}
