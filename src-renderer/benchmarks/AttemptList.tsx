import { useTranslation } from "react-i18next";
import type { QuestionAttempt } from "../../src-shared/contracts/accuracy.js";

/**
 * The candidates and repairs a code question ran, in order, each folding out to its own output:
 * how the scorer got from the response to its verdict.
 */
export function AttemptList({ attempts }: { attempts: QuestionAttempt[] }) {
  const { t } = useTranslation();
  return (
    <section>
      <div className="field-label">{t("drilldown.attempts")}</div>
      <ol className="attempt-list" data-testid="attempts">
        {attempts.map((attempt, index) => (
          <li key={index} className={attempt.outcome === "passed" ? "attempt passed" : "attempt failed"}>
            <details>
              <summary>
                <code>{attempt.pass_mode}</code>{" "}
                <span className="attempt-outcome">
                  {attempt.outcome === "passed" ? t("drilldown.attemptPassed") : attempt.outcome}
                </span>
                {attempt.error ? <span className="attempt-error"> — {attempt.error}</span> : null}
              </summary>
              <pre className="raw">{attempt.output || t("drilldown.noOutput")}</pre>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
