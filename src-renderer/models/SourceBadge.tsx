import type { ModelSource } from "../../src-shared/contracts/catalog.js";
import { useTranslation } from "react-i18next";

const labels: Record<ModelSource, string> = { hf: "HF", modelscope: "MS", local: "Local", unknown: "Local" };

/** Where the model came from: `HF`, `MS` or `Local`. */
export function SourceBadge({ source }: { source: ModelSource }) {
  const { t } = useTranslation();
  return (
    <span
      className={`badge badge-source badge-${source}`}
      title={t(`models.source.${source}`)}
      data-testid="source-badge"
    >
      {labels[source]}
    </span>
  );
}
