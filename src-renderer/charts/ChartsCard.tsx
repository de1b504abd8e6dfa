import { useTranslation } from "react-i18next";
import { ModelSelect } from "../benchmarks/ModelSelect.js";
import { useSelectedModel } from "../benchmarks/useSelectedModel.js";
import { Card } from "../components/Card.js";
import { usePerch } from "../store/usePerch.js";
import { AccuracyOverTimeChart } from "./AccuracyOverTimeChart.js";
import { accuracyOverTime, modelComparison, speedByPrompt } from "./chartData.js";
import { ModelComparisonChart } from "./ModelComparisonChart.js";
import { SpeedByPromptChart } from "./SpeedByPromptChart.js";

/** Speed by prompt length, the model against the others, accuracy over time. */
export function ChartsCard() {
  const { t } = useTranslation();
  const [modelId, setModelId] = useSelectedModel();
  const models = usePerch((state) => state.models);
  const performanceResults = usePerch((state) => state.performanceResults);
  const accuracyResults = usePerch((state) => state.accuracyResults);

  return (
    <Card
      title={t("charts.title")}
      testId="charts"
      actions={<ModelSelect value={modelId} onChange={setModelId} testId="charts-model" />}
    >
      <div className="chart-grid">
        <figure className="chart" data-testid="chart-speed-by-prompt">
          <figcaption>{t("charts.speedByPrompt")}</figcaption>
          <SpeedByPromptChart data={speedByPrompt(performanceResults, modelId)} />
        </figure>
        <figure className="chart" data-testid="chart-comparison">
          <figcaption>{t("charts.comparison")}</figcaption>
          <ModelComparisonChart data={modelComparison(models, modelId)} />
        </figure>
        <figure className="chart" data-testid="chart-accuracy-over-time">
          <figcaption>{t("charts.accuracyOverTime")}</figcaption>
          <AccuracyOverTimeChart series={accuracyOverTime(accuracyResults, modelId)} />
        </figure>
      </div>
    </Card>
  );
}
