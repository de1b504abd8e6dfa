import { useTranslation } from "react-i18next";
import { ProgressBar } from "../components/ProgressBar.js";
import { formatDuration } from "../format/formatDuration.js";
import { formatPercent } from "../format/formatPercent.js";
import { isFinished, type LiveRun } from "../store/LiveRun.js";
import { usePerch } from "../store/usePerch.js";

/** One run: progress bar, count, running accuracy, ETA, cancel. */
export function RunProgressItem({ run }: { run: LiveRun }) {
  const { t } = useTranslation();
  const cancelRun = usePerch((state) => state.cancelRun);
  const dismissRun = usePerch((state) => state.dismissRun);
  const finished = isFinished(run);
  const fraction = run.total > 0 ? run.completed / run.total : finished ? 1 : null;

  return (
    <li
      className={`run-item run-item-${run.status}`}
      data-testid="run-progress"
      data-run-kind={run.kind}
      data-status={run.status}
    >
      <div className="run-head">
        <span className={`badge badge-kind badge-kind-${run.kind}`}>{t(`bench.runs.kind.${run.kind}`)}</span>
        <strong>{run.modelId}</strong>
        {run.step ? <span className="muted">{run.step}</span> : null}
        <span className={`status status-${run.status}`} data-testid="run-status">
          {t(`bench.runs.status.${run.status}`)}
        </span>
        <span className="spacer" />
        {finished ? (
          <button type="button" className="button button-small" onClick={() => dismissRun(run.runId)}>
            {t("common.dismiss")}
          </button>
        ) : (
          <button
            type="button"
            className="button button-small"
            onClick={() => void cancelRun(run.runId)}
            data-testid="cancel-run"
          >
            {t("common.cancel")}
          </button>
        )}
      </div>
      <ProgressBar value={fraction} label={t("bench.runs.progress")} />
      <div className="run-meta">
        <span data-testid="run-count">
          {run.total > 0
            ? t("bench.runs.count", { completed: run.completed, total: run.total })
            : t("bench.runs.preparing")}
        </span>
        {run.kind === "accuracy" ? (
          <span data-testid="run-accuracy">
            {t("bench.runs.accuracy", { value: formatPercent(run.accuracy) })}
          </span>
        ) : null}
        {!finished ? (
          <span data-testid="run-eta">{t("bench.runs.eta", { value: formatDuration(run.etaSeconds) })}</span>
        ) : null}
        {run.error ? <span className="error-text">{run.error}</span> : null}
      </div>
    </li>
  );
}
