import { useTranslation } from "react-i18next";
import type { QuestionResult } from "../../src-shared/contracts/accuracy.js";
import { AttemptList } from "./AttemptList.js";
import { splitThinking } from "../../src-shared/text/splitThinking.js";

/**
 * Everything needed to audit one scored question: the prompt sent, the model's full response
 * (reasoning folded), what was extracted and compared, every repair tried with its outcome, and
 * the failing check's whole output (traceback included).
 */
export function QuestionDetails({ question }: { question: QuestionResult }) {
  const { t } = useTranslation();
  const { reasoning, answer } = splitThinking(question.response);
  return (
    <div className="question-details" data-testid="question-details">
      <section>
        <div className="field-label">{t("drilldown.prompt")}</div>
        {question.prompt ? (
          question.prompt.map((message, index) => (
            <div key={index} className="prompt-message">
              <span className="prompt-role">{message.role}</span>
              <pre className="raw">{message.content}</pre>
            </div>
          ))
        ) : (
          <p className="muted">{t("drilldown.noPrompt")}</p>
        )}
      </section>
      <section>
        <div className="field-label">{t("drilldown.raw")}</div>
        {reasoning ? (
          <details className="reasoning">
            <summary>{t("drilldown.reasoning", { count: reasoning.length })}</summary>
            <pre className="raw">{reasoning}</pre>
          </details>
        ) : null}
        <pre className="raw" data-testid="raw-response">
          {reasoning ? answer : question.response}
        </pre>
      </section>
      <div className="raw-grid">
        <section>
          <div className="field-label">{t("drilldown.extracted")}</div>
          <pre className="raw" data-testid="extracted">
            {question.extracted ?? t("drilldown.nothingExtracted")}
          </pre>
        </section>
        <section>
          <div className="field-label">{t("drilldown.expected")}</div>
          <pre className="raw">{question.expected}</pre>
        </section>
      </div>
      <section>
        <div className="field-label">{t("drilldown.repair")}</div>
        <p data-testid="repair">
          {question.correct
            ? t("drilldown.passedWith", { mode: question.pass_mode ?? "—" })
            : t("drilldown.noRepairPassed", { failure: question.failure_type ?? "—" })}
        </p>
      </section>
      {question.attempts ? <AttemptList attempts={question.attempts} /> : null}
      {question.error || question.test_output ? (
        <section>
          <div className="field-label">{t("drilldown.testOutput")}</div>
          {question.error ? <p className="error-text">{question.error}</p> : null}
          <pre className="raw error-text" data-testid="test-output">
            {question.test_output ?? question.error}
          </pre>
        </section>
      ) : null}
    </div>
  );
}
