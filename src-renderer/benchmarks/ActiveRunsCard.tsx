import { ModelName } from "../models/ModelName.js";
import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { usePerch } from "../store/usePerch.js";
import { RunProgressItem } from "./RunProgressItem.js";

/** Live runs of this session and the server's accuracy queue. */
export function ActiveRunsCard() {
  const { t } = useTranslation();
  const runs = usePerch((state) => state.runs);
  const runOrder = usePerch((state) => state.runOrder);
  const queue = usePerch((state) => state.accuracyQueue);
  const removeQueuedRun = usePerch((state) => state.removeQueuedRun);
  const waiting = queue.filter((run) => run.state === "queued" && !runs[run.run_id]);
  if (runOrder.length === 0 && waiting.length === 0) return null;

  return (
    <Card title={t("bench.runs.title")} testId="active-runs">
      <ul className="run-list">
        {runOrder.map((runId) => {
          const run = runs[runId];
          return run ? <RunProgressItem key={runId} run={run} /> : null;
        })}
        {waiting.map((run) => (
          <li key={run.run_id} className="run-item" data-testid="queued-run">
            <div className="run-head">
              <strong>
                {run.target.kind === "local" ? <ModelName modelId={run.target.model_id} /> : run.target.model}
              </strong>
              <span className="status status-queued">{t("bench.runs.status.queued")}</span>
              <span className="muted">{run.benchmarks.join(", ")}</span>
              <button
                type="button"
                className="button button-small"
                onClick={() => void removeQueuedRun(run.run_id)}
              >
                {t("bench.runs.remove")}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
