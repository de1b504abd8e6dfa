import { useTranslation } from "react-i18next";
import { performanceResultCsv } from "../../src-shared/export/resultCsv.js";
import { pickHeadlineTest } from "../../src-shared/contracts/pickHeadlineTest.js";
import { formatNumber } from "../format/formatNumber.js";
import { formatSpeed } from "../format/formatSpeed.js";
import { usePerch } from "../store/usePerch.js";
import { ResultHistoryCard } from "./ResultHistoryCard.js";

/**
 * Persisted performance results: the headline test's speeds with the prompt length they were
 * measured at (the rule the run card and Models page use), upload status, export, delete, reset.
 */
export function PerformanceHistoryTable() {
  const { t, i18n } = useTranslation();
  const results = usePerch((state) => state.performanceResults);
  const error = usePerch((state) => state.performanceHistoryError);
  const deleting = usePerch((state) => state.deletingResults);
  const deleteResult = usePerch((state) => state.deletePerformanceResult);
  const reset = usePerch((state) => state.resetPerformanceResults);
  const retryUpload = usePerch((state) => state.retryUpload);

  return (
    <ResultHistoryCard
      kind="performance"
      title={t("history.performance.title")}
      results={results}
      error={error}
      deleting={deleting}
      onDelete={(resultId) => void deleteResult(resultId)}
      onReset={(modelId) => void reset(modelId)}
      csv={performanceResultCsv}
      columns={
        <>
          <th className="num" title={t("history.performance.atPromptHint")}>
            {t("history.performance.atPrompt")}
          </th>
          <th className="num" title={t("models.speed.ppHint")}>
            ↓ pp tok/s
          </th>
          <th className="num" title={t("models.speed.tgHint")}>
            ↑ tg tok/s
          </th>
          <th className="num" title={t("chat.stats.ttftHint")}>
            TTFT
          </th>
          <th>{t("history.performance.tests")}</th>
          <th>{t("history.performance.upload")}</th>
        </>
      }
      cells={(result) => {
        const test = pickHeadlineTest(result.single);
        const upload = result.upload;
        return (
          <>
            <td className="num" data-testid="headline-prompt">
              {test
                ? t("history.performance.promptTokens", {
                    tokens: formatNumber(test.prompt_tokens, i18n.language, 0),
                  })
                : "—"}
            </td>
            <td className="num strong">{test ? formatSpeed(test.pp_tps, i18n.language) : "—"}</td>
            <td className="num strong">{test ? formatSpeed(test.tg_tps, i18n.language) : "—"}</td>
            <td className="num">{test ? `${Math.round(test.ttft_ms)} ms` : "—"}</td>
            <td className="muted">
              {result.single.map((single) => single.prompt_tokens).join(" / ")}
              {result.batch.length > 0
                ? ` · ×${result.batch.map((batch) => batch.batch_size).join("/×")}`
                : ""}
              {result.status === "cancelled" ? (
                <div className="notice notice-warning" data-testid="cancelled-run">
                  {t("history.performance.cancelled")}
                </div>
              ) : null}
              {result.environment.other_requests > 0 ? (
                <div className="notice notice-warning" data-testid="shared-run">
                  {t("history.performance.shared", { count: result.environment.other_requests })}
                </div>
              ) : null}
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
          </>
        );
      }}
      actions={(result) =>
        result.upload.state === "failed" ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => void retryUpload(result.result_id)}
          >
            {t("history.performance.retry")}
          </button>
        ) : null
      }
    />
  );
}
