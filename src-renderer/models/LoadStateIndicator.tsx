import { useTranslation } from "react-i18next";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import { usePerch } from "../store/usePerch.js";

/**
 * Loaded (green), loading (amber, pulsing), missing (red) or idle (grey). The row's own Load
 * request counts as loading: the model list says so only once it is asked again.
 */
export function LoadStateIndicator({ model }: { model: ModelRow }) {
  const { t } = useTranslation();
  const loading = usePerch((state) => state.modelBusy[model.id] === "loading");
  const state = model.missing ? "missing" : loading ? "loading" : model.load.state;
  return (
    <span className={`load-state load-state-${state}`} data-testid="load-state" data-state={state}>
      <span className="load-dot" aria-hidden="true" />
      <span className="load-label">{t(`models.load.${state}`)}</span>
      {model.load.pinned ? (
        <span className="pin" title={t("models.load.pinned")}>
          📌
        </span>
      ) : null}
    </span>
  );
}
