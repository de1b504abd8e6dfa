import type { ModelSource } from "../../src-shared/contracts/catalog.js";
import { useTranslation } from "react-i18next";

/** Hub abbreviations stay as they are; a local file is said in the page's language. */
const hubLabels: Partial<Record<ModelSource, string>> = { hf: "HF", modelscope: "MS" };

/** Where the model came from: `HF`, `MS` or `Local`. */
export function SourceBadge({ source }: { source: ModelSource }) {
  const { t } = useTranslation();
  return (
    <span
      className={`badge badge-source badge-${source}`}
      title={t(`models.source.${source}`)}
      data-testid="source-badge"
    >
      {hubLabels[source] ?? t("models.source.localBadge")}
    </span>
  );
}
