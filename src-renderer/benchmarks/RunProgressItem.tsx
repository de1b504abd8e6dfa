import { useTranslation } from "react-i18next";
import { ProgressBar } from "../components/ProgressBar.js";
import { formatDuration } from "../format/formatDuration.js";
import { formatNumber } from "../format/formatNumber.js";
import { formatPercent } from "../format/formatPercent.js";
import { isFinished, type LiveRun } from "../store/LiveRun.js";
import { usePerch } from "../store/usePerch.js";
import { ModelName } from "../models/ModelName.js";
import { runFailureKey } from "./runFailureKey.js";

/**
 * One run: progress bar, count, running accuracy, ETA, cancel. A finished run shows its headline
 * numbers and a link to the result; a failed one says in words what happened and what to do.
 */
export function RunProgressItem({ run }: { run: LiveRun }) {
  const { t } = useTranslation();
  const cancelRun = usePerch((state) => state.cancelRun);
  const dismissRun = usePerch((state) => state.dismissRun);
  const finished = isFinished(run);
  const failed = run.status === "failed";
  // A cancelled or failed run shows how far it got, not a full bar.
  const fraction = run.status === "completed" ? 1 : run.total > 0 ? run.completed / run.total : null;

  return (
    <li
      className={`run-item run-item-${run.status}`}
      data-testid="run-progress"
      data-run-kind={run.kind}
      data-status={run.status}
    >
      <div className="run-head">
        <span className={`badge badge-kind badge-kind-${run.kind}`}>{t(`bench.runs.kind.${run.kind}`)}</span>
        <strong className="run-model">
          <ModelName modelId={run.modelId} />
        </strong>
        {run.step && !finished ? (
          <span className="muted" data-testid="run-step">
            {stepLabel(run, t)}
          </span>
        ) : null}
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
      {failed ? null : <ProgressBar value={fraction} label={t("bench.runs.progress")} />}
      {failed ? (
        <RunFailure run={run} />
      ) : run.status === "interrupted" ? (
        <p className="run-meta" data-testid="run-interrupted">
          {t("bench.runs.interrupted")}
        </p>
      ) : finished ? (
        <RunOutcome run={run} />
      ) : (
        <RunMeta run={run} />
      )}
    </li>
  );
}

/** The step running; of a run of several benchmarks, which one ("gsm8k (2 of 3)"): the bar and ETA are its own. */
function stepLabel(run: LiveRun, t: (key: string, options?: Record<string, unknown>) => string): string {
  const index = run.steps.indexOf(run.step ?? "");
  if (run.steps.length < 2 || index < 0) return run.step ?? "";
  return t("bench.runs.stepOf", { step: run.step, index: index + 1, count: run.steps.length });
}

function RunMeta({ run }: { run: LiveRun }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="run-meta">
      <span data-testid="run-count">
        {run.total > 0
          ? t("bench.runs.count", { completed: run.completed, total: run.total })
          : t("bench.runs.preparing")}
      </span>
      {run.kind === "accuracy" && run.accuracy !== null ? (
        <span data-testid="run-accuracy">
          {t("bench.runs.accuracy", { value: formatPercent(run.accuracy, i18n.language) })}
        </span>
      ) : null}
      <span data-testid="run-eta">{t("bench.runs.eta", { value: formatDuration(run.etaSeconds) })}</span>
    </div>
  );
}

/** Completed or cancelled: the numbers the run produced and where to see them. */
function RunOutcome({ run }: { run: LiveRun }) {
  const { t, i18n } = useTranslation();
  const openDrilldown = usePerch((state) => state.openDrilldown);
  const resultId = run.resultIds.at(-1);
  const locale = i18n.language;
  const showHistory = () =>
    document.querySelector(`[data-testid="${run.kind}-history"]`)?.scrollIntoView({ behavior: "smooth" });
  if (run.kind === "accuracy" && run.outcomes.length > 0) {
    // One line per benchmark that finished (a cancelled one with the questions it scored), each
    // with its own result.
    return (
      <div className="run-meta run-outcome" data-testid="run-outcome">
        {run.outcomes.map((outcome) => (
          <span key={outcome.benchmark} className="run-outcome-step" data-testid="run-headline">
            {t("bench.runs.headlineBenchmark", {
              benchmark: outcome.benchmark,
              value: formatPercent(outcome.accuracy, locale),
              correct: outcome.correct,
              total: outcome.total,
            })}
            {/* A space, not only a margin: copied or read aloud, the sentence and the link stay apart. */}
            {outcome.resultId ? " " : null}
            {outcome.resultId ? (
              <button
                type="button"
                className="link-button"
                onClick={() => openDrilldown(outcome.resultId!)}
                data-testid="run-result-link"
              >
                {t("bench.runs.viewResult")}
              </button>
            ) : null}
          </span>
        ))}
      </div>
    );
  }
  return (
    <div className="run-meta run-outcome" data-testid="run-outcome">
      {run.kind === "accuracy" ? (
        <span data-testid="run-headline">
          {t("bench.runs.headlineAccuracy", {
            value: formatPercent(run.accuracy, i18n.language),
            correct: run.correct,
            total: run.total,
          })}
        </span>
      ) : run.headline ? (
        <span data-testid="run-headline">
          {t("bench.runs.headlinePerformance", {
            prompt: formatNumber(run.headline.promptTps, locale, run.headline.promptTps >= 100 ? 0 : 1),
            generation: formatNumber(
              run.headline.generationTps,
              locale,
              run.headline.generationTps >= 100 ? 0 : 1,
            ),
            ttft: formatNumber(run.headline.ttftMs, locale, 0),
            tokens: formatNumber(run.headline.promptTokens, locale, 0),
          })}
        </span>
      ) : null}
      {resultId ? (
        <button
          type="button"
          className="link-button"
          onClick={() => (run.kind === "accuracy" ? openDrilldown(resultId) : showHistory())}
          data-testid="run-result-link"
        >
          {t("bench.runs.viewResult")}
        </button>
      ) : null}
      {run.uploadError ? (
        <span
          className="notice notice-warning"
          role="alert"
          data-testid="run-upload-failed"
          title={run.uploadError}
        >
          {t("bench.runs.uploadFailed", { error: run.uploadError })}
        </span>
      ) : null}
    </div>
  );
}

function RunFailure({ run }: { run: LiveRun }) {
  const { t } = useTranslation();
  return (
    <div className="run-failure" role="alert" data-testid="run-failure">
      <p>{t(runFailureKey(run.errorCode, run.error))}</p>
      {run.error ? (
        <details>
          <summary>{t("bench.runs.failure.details")}</summary>
          <code className="run-error-raw">{run.error}</code>
        </details>
      ) : null}
    </div>
  );
}
