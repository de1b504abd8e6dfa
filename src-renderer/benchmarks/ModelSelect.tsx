import { useTranslation } from "react-i18next";
import { modelChoiceLabels, modelDisplayName } from "../models/modelDisplayName.js";
import { usePerch } from "../store/usePerch.js";

interface ModelSelectProps {
  value: string;
  onChange: (modelId: string) => void;
  testId?: string;
  /** Adds an "All models" entry with the empty value. */
  allowAll?: boolean;
}

export function ModelSelect({ value, onChange, testId, allowAll }: ModelSelectProps) {
  const { t } = useTranslation();
  const models = usePerch((state) => state.models);
  const choices = models.filter((model) => !model.missing);
  // Name and quantization (an alias alone); a pair still alike gets its id.
  const labels = modelChoiceLabels(choices, (model) =>
    model.settings.alias
      ? model.settings.alias
      : `${modelDisplayName(model)}${model.gguf?.quantization ? ` (${model.gguf.quantization})` : ""}`,
  );
  return (
    <select
      value={value}
      onChange={(event) => onChange(event.target.value)}
      data-testid={testId}
      aria-label={t("bench.model")}
    >
      {allowAll ? <option value="">{t("history.allModels")}</option> : null}
      {!allowAll && models.length === 0 ? <option value="">—</option> : null}
      {choices.map((model) => (
        <option key={model.id} value={model.id}>
          {labels.get(model.id)}
        </option>
      ))}
    </select>
  );
}
