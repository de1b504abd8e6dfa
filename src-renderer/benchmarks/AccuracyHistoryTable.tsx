import { useTranslation } from "react-i18next";
import { accuracyResultCsv } from "../../src-shared/export/resultCsv.js";
import { benchmarkLabel } from "../format/benchmarkLabel.js";
import { formatPercent } from "../format/formatPercent.js";
import { usePerch } from "../store/usePerch.js";
import { ResultHistoryCard } from "./ResultHistoryCard.js";

/** Persisted accuracy results: details, export, delete, reset. */
export function AccuracyHistoryTable() {
  const { t, i18n } = useTranslation();
  const results = usePerch((state) => state.accuracyResults);
  const error = usePerch((state) => state.accuracyHistoryError);
  const deleting = usePerch((state) => state.deletingResults);
  const openDrilldown = usePerch((state) => state.openDrilldown);
  const deleteResult = usePerch((state) => state.deleteAccuracyResult);
  const reset = usePerch((state) => state.resetAccuracyResults);

  return (
    <ResultHistoryCard
      kind="accuracy"
      title={t("history.accuracy.title")}
      results={results}
      error={error}
      deleting={deleting}
      onDelete={(resultId) => void deleteResult(resultId)}
      onReset={(modelId) => void reset(modelId)}
      csv={accuracyResultCsv}
      columns={
        <>
          <th>{t("history.benchmark")}</th>
          <th className="num">{t("history.accuracy.accuracy")}</th>
          <th className="num">{t("history.accuracy.questions")}</th>
          <th className="num">{t("history.accuracy.batch")}</th>
          <th>{t("history.accuracy.sampling")}</th>
        </>
      }
      cells={(result) => (
        <>
          <td>
            {benchmarkLabel(result.benchmark)}
            <span className="muted"> {result.variant}</span>
            {result.status !== "completed" ? (
              <span className="badge badge-warning">{t(`bench.runs.status.${result.status}`)}</span>
            ) : null}
          </td>
          <td className="num strong">{formatPercent(result.accuracy, i18n.language)}</td>
          <td className="num">
            {Math.round(result.accuracy * result.total)}/{result.total}
          </td>
          <td className="num">{result.batch_size}</td>
          <td>
            {t(`history.profile.${result.sampling_profile}`)}
            {result.thinking ? <span className="muted"> · {t("drilldown.thinking")}</span> : null}
          </td>
        </>
      )}
      actions={(result) => (
        <button
          type="button"
          className="button button-small"
          onClick={() => openDrilldown(result.result_id)}
          data-testid="open-drilldown"
        >
          {t("history.details")}
        </button>
      )}
    />
  );
}
