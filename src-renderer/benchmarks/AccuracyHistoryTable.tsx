import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { benchmarkLabel } from "../format/benchmarkLabel.js";
import { formatDate } from "../format/formatDate.js";
import { formatPercent } from "../format/formatPercent.js";
import { usePerch } from "../store/usePerch.js";
import { accuracyResultCsv } from "../../src-shared/export/resultCsv.js";
import { saveFile } from "./saveFile.js";
import { ModelSelect } from "./ModelSelect.js";

type Pending = { kind: "delete"; resultId: string } | { kind: "reset" } | null;

/** Persisted accuracy results: details, export, delete, reset. */
export function AccuracyHistoryTable() {
  const { t, i18n } = useTranslation();
  const results = usePerch((state) => state.accuracyResults);
  const error = usePerch((state) => state.accuracyHistoryError);
  const deleting = usePerch((state) => state.deletingResults);
  const openDrilldown = usePerch((state) => state.openDrilldown);
  const deleteResult = usePerch((state) => state.deleteAccuracyResult);
  const reset = usePerch((state) => state.resetAccuracyResults);
  const [filter, setFilter] = useState("");
  const [pending, setPending] = useState<Pending>(null);
  const shown = filter ? results.filter((result) => result.model_id === filter) : results;

  return (
    <Card
      title={t("history.accuracy.title")}
      testId="accuracy-history"
      actions={
        <>
          <ModelSelect value={filter} onChange={setFilter} allowAll testId="accuracy-history-filter" />
          <button
            type="button"
            className="button button-small button-danger-quiet"
            disabled={shown.length === 0}
            onClick={() => setPending({ kind: "reset" })}
            data-testid="accuracy-reset"
          >
            {t("history.reset")}
          </button>
        </>
      }
    >
      <ErrorNote error={error} />
      {shown.length === 0 ? (
        <EmptyState title={t("history.empty")} />
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>{t("history.date")}</th>
                <th>{t("history.model")}</th>
                <th>{t("history.benchmark")}</th>
                <th className="num">{t("history.accuracy.accuracy")}</th>
                <th className="num">{t("history.accuracy.questions")}</th>
                <th className="num">{t("history.accuracy.batch")}</th>
                <th>{t("history.accuracy.sampling")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((result) => (
                <tr
                  key={result.result_id}
                  data-testid="accuracy-history-row"
                  data-result-id={result.result_id}
                >
                  <td className="nowrap">{formatDate(result.created_at, i18n.language)}</td>
                  <td className="truncate" title={result.model_id}>
                    {result.model_id}
                  </td>
                  <td>
                    {benchmarkLabel(result.benchmark)}
                    <span className="muted"> {result.variant}</span>
                    {result.status !== "completed" ? (
                      <span className="badge badge-warning">{t(`bench.runs.status.${result.status}`)}</span>
                    ) : null}
                  </td>
                  <td className="num strong">{formatPercent(result.accuracy)}</td>
                  <td className="num">
                    {Math.round(result.accuracy * result.total)}/{result.total}
                  </td>
                  <td className="num">{result.batch_size}</td>
                  <td>
                    {t(`history.profile.${result.sampling_profile}`)}
                    {result.thinking ? <span className="muted"> · {t("drilldown.thinking")}</span> : null}
                  </td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => openDrilldown(result.result_id)}
                      data-testid="open-drilldown"
                    >
                      {t("history.details")}
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() =>
                        saveFile(
                          `${result.result_id}.json`,
                          JSON.stringify(result, null, 2),
                          "application/json",
                        )
                      }
                      data-testid="export-json"
                    >
                      JSON
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() =>
                        saveFile(`${result.result_id}.csv`, accuracyResultCsv(result), "text/csv")
                      }
                      data-testid="export-csv"
                    >
                      CSV
                    </button>
                    <button
                      type="button"
                      className="button button-small button-danger-quiet"
                      disabled={deleting.includes(result.result_id)}
                      onClick={() => setPending({ kind: "delete", resultId: result.result_id })}
                      data-testid="delete-result"
                    >
                      {t("history.delete")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pending ? (
        <ConfirmDialog
          title={pending.kind === "reset" ? t("history.resetTitle") : t("history.deleteTitle")}
          message={
            pending.kind === "reset"
              ? t("history.resetMessage", { count: shown.length })
              : t("history.deleteMessage")
          }
          confirmLabel={pending.kind === "reset" ? t("history.reset") : t("history.delete")}
          onCancel={() => setPending(null)}
          onConfirm={() => {
            if (pending.kind === "reset") void reset(filter || undefined);
            else void deleteResult(pending.resultId);
            setPending(null);
          }}
        />
      ) : null}
    </Card>
  );
}
