import { useTranslation } from "react-i18next";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import type { AccuracyResult } from "../../src-shared/contracts/accuracy.js";
import { benchmarkLabel, benchmarkOrder } from "../format/benchmarkLabel.js";
import { formatDate } from "../format/formatDate.js";
import { formatPercent } from "../format/formatPercent.js";
import { usePerch } from "../store/usePerch.js";

interface AccuracyChipsProps {
  model: ModelRow;
  /** History, to tell each chip's sample size. */
  results: AccuracyResult[];
}

const tone = (accuracy: number) => (accuracy >= 0.75 ? "high" : accuracy >= 0.4 ? "mid" : "low");

/**
 * Best accuracy per benchmark, `HE 93.9%`, with date and sample size in the tooltip; a score
 * measured on an earlier file of the model (before an update) is drawn dashed and says so.
 */
export function AccuracyChips({ model, results }: AccuracyChipsProps) {
  const { t, i18n } = useTranslation();
  const openDrilldown = usePerch((state) => state.openDrilldown);
  const entries = Object.entries(model.accuracy.best_by_benchmark).sort(
    ([a], [b]) => benchmarkOrder(a) - benchmarkOrder(b) || a.localeCompare(b),
  );
  if (entries.length === 0) return <span className="muted">{t("models.accuracy.none")}</span>;
  return (
    <span className="chips">
      {entries.map(([benchmark, best]) => {
        const total = results.find((result) => result.result_id === best.result_id)?.total;
        const title = t("models.accuracy.tooltip", {
          benchmark,
          date: formatDate(best.created_at, i18n.language),
          count: total ?? 0,
          samples: total ?? "?",
        });
        const earlier = best.earlier_model_file ? `\n${t("models.earlierFile")}` : "";
        return (
          <button
            type="button"
            key={benchmark}
            className={`chip chip-accuracy chip-${tone(best.accuracy)}${best.earlier_model_file ? " chip-earlier" : ""}`}
            title={`${title}${earlier}\n${t("models.accuracy.openFailures")}`}
            onClick={() => openDrilldown(best.result_id, best.accuracy < 1 ? "failed" : "all")}
            data-testid="accuracy-chip"
            data-benchmark={benchmark}
            data-earlier-file={best.earlier_model_file || undefined}
          >
            {benchmarkLabel(benchmark)} {formatPercent(best.accuracy, i18n.language)}
            {best.earlier_model_file && (
              <span className="visually-hidden">{` (${t("models.earlierFileShort")})`}</span>
            )}
          </button>
        );
      })}
    </span>
  );
}
