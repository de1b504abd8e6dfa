import { useTranslation } from "react-i18next";
import { modelDisplayName } from "../models/modelDisplayName.js";
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
  return (
    <select
      value={value}
      onChange={(event) => onChange(event.target.value)}
      data-testid={testId}
      aria-label={t("bench.model")}
    >
      {allowAll ? <option value="">{t("history.allModels")}</option> : null}
      {!allowAll && models.length === 0 ? <option value="">—</option> : null}
      {models
        .filter((model) => !model.missing)
        .map((model) => (
          <option key={model.id} value={model.id}>
            {modelDisplayName(model)}
            {model.settings.alias ? "" : model.gguf?.quantization ? ` (${model.gguf.quantization})` : ""}
          </option>
        ))}
    </select>
  );
}
