import { useState } from "react";
import { useTranslation } from "react-i18next";
import { canonicalPerformanceTest } from "../../src-shared/contracts/results.js";
import type { PerformanceResult } from "../../src-shared/contracts/bench.js";
import { Card } from "../components/Card.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { formatDate } from "../format/formatDate.js";
import { formatSpeed } from "../format/formatSpeed.js";
import { usePerch } from "../store/usePerch.js";
import { performanceResultCsv } from "../../src-shared/export/resultCsv.js";
import { saveFile } from "./saveFile.js";
import { ModelSelect } from "./ModelSelect.js";

type Pending = { kind: "delete"; resultId: string } | { kind: "reset" } | null;

/** The single-request test nearest to the canonical 1024-token prompt. */
function canonical(result: PerformanceResult) {
  return [...result.single].sort(
    (a, b) =>
      Math.abs(a.prompt_tokens - canonicalPerformanceTest.prompt_tokens) -
      Math.abs(b.prompt_tokens - canonicalPerformanceTest.prompt_tokens),
  )[0];
}

/** Persisted performance results: speeds, upload status (with skip reason), export, delete, reset. */
export function PerformanceHistoryTable() {
  const { t, i18n } = useTranslation();
  const results = usePerch((state) => state.performanceResults);
  const error = usePerch((state) => state.performanceHistoryError);
  const deleting = usePerch((state) => state.deletingResults);
  const deleteResult = usePerch((state) => state.deletePerformanceResult);
  const reset = usePerch((state) => state.resetPerformanceResults);
  const retryUpload = usePerch((state) => state.retryUpload);
  const [filter, setFilter] = useState("");
  const [pending, setPending] = useState<Pending>(null);
  const shown = filter ? results.filter((result) => result.model_id === filter) : results;

  return (
    <Card
      title={t("history.performance.title")}
      testId="performance-history"
      actions={
        <>
          <ModelSelect value={filter} onChange={setFilter} allowAll testId="performance-history-filter" />
          <button
            type="button"
            className="button button-small button-danger-quiet"
            disabled={shown.length === 0}
            onClick={() => setPending({ kind: "reset" })}
            data-testid="performance-reset"
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
                <th className="num">↓ pp tok/s</th>
                <th className="num">↑ tg tok/s</th>
                <th className="num">TTFT</th>
                <th>{t("history.performance.tests")}</th>
                <th>{t("history.performance.upload")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((result) => {
                const test = canonical(result);
                const upload = result.upload;
                return (
                  <tr
                    key={result.result_id}
                    data-testid="performance-history-row"
                    data-result-id={result.result_id}
                  >
                    <td className="nowrap">{formatDate(result.created_at, i18n.language)}</td>
                    <td className="truncate" title={result.model_id}>
                      {result.model_id}
                    </td>
                    <td className="num strong">{test ? formatSpeed(test.pp_tps) : "—"}</td>
                    <td className="num strong">{test ? formatSpeed(test.tg_tps) : "—"}</td>
                    <td className="num">{test ? `${Math.round(test.ttft_ms)} ms` : "—"}</td>
                    <td className="muted">
                      {result.single.map((single) => single.prompt_tokens).join(" / ")}
                      {result.batch.length > 0
                        ? ` · ×${result.batch.map((batch) => batch.batch_size).join("/×")}`
                        : ""}
                    </td>
                    <td>
                      <span
                        className={`badge badge-upload badge-upload-${upload.state}`}
                        title={upload.state === "failed" ? upload.error : undefined}
                        data-testid="upload-status"
                      >
                        {t(`history.uploadStatus.${upload.state}`)}
                      </span>
                      {upload.state === "skipped" ? (
                        <div className="field-hint" data-testid="upload-skip-reason">
                          {t(`bench.upload.skip.${upload.code}`, { defaultValue: upload.reason })}
                        </div>
                      ) : null}
                    </td>
                    <td className="row-actions">
                      {upload.state === "failed" ? (
                        <button
                          type="button"
                          className="button button-small"
                          onClick={() => void retryUpload(result.result_id)}
                        >
                          {t("history.performance.retry")}
                        </button>
                      ) : null}
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
                      >
                        JSON
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() =>
                          saveFile(`${result.result_id}.csv`, performanceResultCsv(result), "text/csv")
                        }
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
                );
              })}
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
