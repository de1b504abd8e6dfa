import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QuestionResult } from "../../src-shared/contracts/accuracy.js";
import { Modal } from "../components/Modal.js";
import { benchmarkLabel } from "../format/benchmarkLabel.js";
import { formatPercent } from "../format/formatPercent.js";
import { usePerch } from "../store/usePerch.js";
import { accuracyResultCsv } from "../../src-shared/export/resultCsv.js";
import { QuestionDetails } from "./QuestionDetails.js";
import { saveFile } from "./saveFile.js";

const show = (value: unknown): string =>
  value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);

const extracted = (question: QuestionResult) => question.extracted;

/** Which questions are shown: all, every failure, or one failure type. */
export type QuestionFilter = "all" | "failed" | string;

const matches = (question: QuestionResult, filter: QuestionFilter) =>
  filter === "all"
    ? true
    : filter === "failed"
      ? !question.correct
      : !question.correct && (question.failure_type ?? "unknown") === filter;

/** Per-question view of an accuracy result: answer, pass mode, failure type, error, raw output. */
export function DrilldownModal() {
  const { t, i18n } = useTranslation();
  const resultId = usePerch((state) => state.drilldownResultId);
  const results = usePerch((state) => state.accuracyResults);
  const close = usePerch((state) => state.closeDrilldown);
  const filter = usePerch((state) => state.drilldownFilter);
  const setFilter = usePerch((state) => state.setDrilldownFilter);
  const [open, setOpen] = useState<string | null>(null);
  const result = results.find((candidate) => candidate.result_id === resultId);
  if (!result) return null;
  const questions = result.questions.filter((question) => matches(question, filter));
  const failureCounts = new Map<string, number>();
  for (const question of result.questions) {
    if (!question.correct) {
      const type = question.failure_type ?? "unknown";
      failureCounts.set(type, (failureCounts.get(type) ?? 0) + 1);
    }
  }

  return (
    <Modal
      title={t("drilldown.title", { benchmark: benchmarkLabel(result.benchmark), model: result.model_id })}
      onClose={close}
      wide
      testId="drilldown-modal"
    >
      <div className="drilldown-summary">
        <span className="big-number">{formatPercent(result.accuracy, i18n.language)}</span>
        <span className="muted">
          {t("drilldown.summary", {
            correct: result.questions.filter((question) => question.correct).length,
            total: result.total,
            batch: result.batch_size,
            profile: t(`history.profile.${result.sampling_profile}`),
          })}
        </span>
        <code className="sampling-code" title={t("drilldown.effectiveSampling")}>
          {JSON.stringify(result.effective_sampling)}
        </code>
        {result.thinking ? (
          <span className="badge badge-kind-accuracy">{t("drilldown.thinking")}</span>
        ) : null}
        <span className="chips" role="group" aria-label={t("drilldown.filterByFailure")}>
          {[...failureCounts].map(([type, count]) => (
            <button
              type="button"
              key={type}
              className={filter === type ? "chip chip-failure chip-pressed" : "chip chip-failure"}
              aria-pressed={filter === type}
              onClick={() => setFilter(filter === type ? "all" : type)}
              title={t("drilldown.showOnly", { type })}
              data-testid="failure-filter"
              data-failure-type={type}
            >
              {type} × {count}
            </button>
          ))}
        </span>
      </div>
      <div className="drilldown-tools">
        <label className="checkbox-line">
          <input
            type="checkbox"
            checked={filter !== "all"}
            onChange={(event) => setFilter(event.target.checked ? "failed" : "all")}
            data-testid="failed-only"
          />
          <span>{t("drilldown.failedOnly")}</span>
        </label>
        <span className="spacer" />
        <button
          type="button"
          className="button button-small"
          onClick={() =>
            saveFile(`${result.result_id}.json`, JSON.stringify(result, null, 2), "application/json")
          }
        >
          {t("drilldown.exportJson")}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => saveFile(`${result.result_id}.csv`, accuracyResultCsv(result), "text/csv")}
        >
          {t("drilldown.exportCsv")}
        </button>
      </div>
      {result.questions.length === 0 ? (
        <p className="muted">{t("drilldown.noQuestions")}</p>
      ) : (
        <div className="table-scroll drilldown-table">
          <table className="table table-compact">
            <thead>
              <tr>
                <th>{t("drilldown.id")}</th>
                <th />
                <th>{t("drilldown.extracted")}</th>
                <th>{t("drilldown.passMode")}</th>
                <th>{t("drilldown.failureType")}</th>
                <th>{t("drilldown.error")}</th>
                <th className="num">{t("drilldown.time")}</th>
              </tr>
            </thead>
            <tbody>
              {questions.map((question) => {
                const key = String(question.id);
                return (
                  <Fragment key={key}>
                    <tr
                      className="clickable"
                      onClick={() => setOpen(open === key ? null : key)}
                      // Reachable and opened from the keyboard too (Tab, then Enter or Space).
                      tabIndex={0}
                      aria-expanded={open === key}
                      onKeyDown={(event) => {
                        if (event.target !== event.currentTarget) return;
                        if (event.key === "Enter" || event.key === " ") {
                          event.preventDefault();
                          setOpen(open === key ? null : key);
                        }
                      }}
                      data-testid="question-row"
                    >
                      <td className="mono nowrap">{key}</td>
                      <td className={question.correct ? "pass" : "fail"}>{question.correct ? "✓" : "✗"}</td>
                      <td className="mono truncate" title={show(extracted(question))}>
                        {show(extracted(question))}
                      </td>
                      <td className="mono">{question.pass_mode ?? "—"}</td>
                      <td className="mono">{question.failure_type ?? "—"}</td>
                      <td className="mono truncate error-text" title={question.error ?? undefined}>
                        {question.error ?? ""}
                      </td>
                      <td className="num">{`${question.time_s.toFixed(1)} s`}</td>
                    </tr>
                    {open === key ? (
                      <tr className="expanded">
                        <td colSpan={7}>
                          <QuestionDetails question={question} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Modal>
  );
}
