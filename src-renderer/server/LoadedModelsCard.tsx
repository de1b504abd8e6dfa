import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { EmptyState } from "../components/EmptyState.js";
import { modelDisplayName } from "../models/modelDisplayName.js";
import { usePerch } from "../store/usePerch.js";

/** Models in memory now, with who uses them and an Unload button. */
export function LoadedModelsCard() {
  const { t } = useTranslation();
  const models = usePerch((state) => state.models);
  const busy = usePerch((state) => state.modelBusy);
  const unload = usePerch((state) => state.unloadModel);
  const loaded = models.filter((model) => model.load.state !== "unloaded");
  return (
    <Card title={t("server.loaded.title")} testId="loaded-models">
      {loaded.length === 0 ? (
        <EmptyState title={t("server.loaded.none")}>{t("server.loaded.hint")}</EmptyState>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t("history.model")}</th>
              <th>{t("server.loaded.state")}</th>
              <th className="num">{t("server.loaded.users")}</th>
              <th className="num">{t("server.loaded.ttl")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {loaded.map((model) => (
              <tr key={model.id} data-testid="loaded-model-row">
                <td>{modelDisplayName(model)}</td>
                <td>
                  {t(`models.load.${model.load.state}`)}
                  {model.load.pinned ? ` · ${t("models.load.pinned")}` : ""}
                </td>
                <td className="num">{model.load.active_users}</td>
                <td className="num">{model.load.ttl_seconds ? `${model.load.ttl_seconds}s` : "∞"}</td>
                <td className="num">
                  <button
                    type="button"
                    className="button button-small"
                    disabled={busy[model.id] !== undefined}
                    onClick={() => void unload(model.id)}
                    data-testid="unload-model"
                  >
                    {t("server.loaded.unload")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
