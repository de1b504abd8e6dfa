import { useTranslation } from "react-i18next";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import { formatDate } from "../format/formatDate.js";
import { formatNumber } from "../format/formatNumber.js";
import { formatSpeed } from "../format/formatSpeed.js";

/**
 * `↓ 812 tok/s` (prompt processing) over `↑ 48.3 tok/s` (generation), over the prompt length they
 * were measured at (the run's headline test, as its history row and run card show it), and
 * "earlier file" when they were measured before the model's file was updated or replaced.
 */
export function SpeedSummary({ model }: { model: ModelRow }) {
  const { t, i18n } = useTranslation();
  const performance = model.performance;
  if (!performance) return <span className="muted">{t("models.speed.none")}</span>;
  const title = t("models.speed.tooltip", {
    prompt: performance.prompt_tokens,
    generated: performance.generated_tokens,
    date: formatDate(performance.created_at, i18n.language),
  });
  return (
    <span className="speeds" title={title}>
      <span
        className="speed speed-pp"
        data-testid="speed-pp"
        aria-label={t("models.speed.pp")}
        title={t("models.speed.ppHint")}
      >
        ↓ {formatSpeed(performance.pp_tps, i18n.language)} tok/s
      </span>
      <span
        className="speed speed-tg"
        data-testid="speed-tg"
        aria-label={t("models.speed.tg")}
        title={t("models.speed.tgHint")}
      >
        ↑ {formatSpeed(performance.tg_tps, i18n.language)} tok/s
      </span>
      <span className="speed-at" data-testid="speed-at">
        {t("models.speed.at", { tokens: formatNumber(performance.prompt_tokens, i18n.language, 0) })}
        {performance.earlier_model_file && (
          <>
            {" · "}
            <span className="speed-earlier" data-testid="speed-earlier" title={t("models.earlierFile")}>
              {t("models.earlierFileShort")}
            </span>
          </>
        )}
      </span>
    </span>
  );
}
