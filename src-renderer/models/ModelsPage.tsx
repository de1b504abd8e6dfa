import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../components/EmptyState.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { PageHeader } from "../components/PageHeader.js";
import { usePerch } from "../store/usePerch.js";
import { DownloadPanel } from "./DownloadPanel.js";
import { FirstRunCard } from "./FirstRunCard.js";
import { ModelRowView } from "./ModelRowView.js";
import { ModelsToolbar } from "./ModelsToolbar.js";

/** The model manager: one row per model, header actions, downloads. */
export function ModelsPage() {
  const { t } = useTranslation();
  const models = usePerch((state) => state.models);
  const modelsDirs = usePerch((state) => state.modelsDirs);
  const status = usePerch((state) => state.modelsStatus);
  const error = usePerch((state) => state.modelsError);
  const accuracyResults = usePerch((state) => state.accuracyResults);
  const [downloading, setDownloading] = useState(false);

  return (
    <div className="page" data-testid="models-page">
      <PageHeader
        title={t("models.title")}
        subtitle={t("models.subtitle", { count: models.length, dirs: modelsDirs.join(", ") || "—" })}
      >
        <ModelsToolbar onDownload={() => setDownloading(true)} />
      </PageHeader>
      {downloading ? <DownloadPanel onClose={() => setDownloading(false)} /> : null}
      <ErrorNote error={error} testId="models-error" />
      <div className="model-table" role="table" aria-label={t("models.title")}>
        <div className="model-row model-row-head" role="row">
          <div role="columnheader">{t("models.columns.model")}</div>
          <div role="columnheader">{t("models.columns.tags")}</div>
          <div role="columnheader">{t("models.columns.accuracy")}</div>
          <div role="columnheader" title={t("models.speed.legend")}>
            {t("models.columns.speed")}
          </div>
          <div role="columnheader">{t("models.columns.size")}</div>
          <div role="columnheader" className="visually-hidden">
            {t("models.columns.actions")}
          </div>
        </div>
        {models.map((model) => (
          <ModelRowView key={model.id} model={model} accuracyResults={accuracyResults} />
        ))}
      </div>
      {models.some((model) => model.performance) ? (
        <p className="legend" data-testid="speed-legend">
          {t("models.speed.legend")}
        </p>
      ) : null}
      {status === "ready" && models.length === 0 ? (
        <EmptyState title={t("models.empty.title")}>
          {t("models.empty.hint", { dirs: modelsDirs.join(", ") })}
        </EmptyState>
      ) : null}
      {status === "ready" && models.length === 0 ? <FirstRunCard /> : null}
      {status === "loading" ? <p className="muted loading-line">{t("common.loading")}</p> : null}
    </div>
  );
}
