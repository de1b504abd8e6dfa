import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { usePerch } from "../store/usePerch.js";
import { settingLabels } from "../settings/settingLabels.js";
import { serverOrigin } from "./clientEndpoints.js";

/** Where the server listens and whether it asks for a key; the OpenAI base URL to copy. */
export function ServerInfoCard() {
  const { t } = useTranslation();
  const settings = usePerch((state) => state.globalSettings);
  const health = usePerch((state) => state.health);
  const { host, port, origin } = serverOrigin(window.location, settings);
  const keyOn = settings?.settings.api_key_set;

  return (
    <Card title={t("server.info.title")} testId="server-info">
      <dl className="facts">
        <dt>{t("server.info.status")}</dt>
        <dd>
          <span className={`status status-${health?.status === "degraded" ? "failed" : "completed"}`}>
            {health ? t(`server.info.health.${health.status}`) : t("server.info.health.unknown")}
          </span>
        </dd>
        <dt>{t("server.info.address")}</dt>
        <dd className="mono" data-testid="server-address">
          {host}
        </dd>
        <dt>{t("server.info.port")}</dt>
        <dd className="mono" data-testid="server-port">
          {port}
        </dd>
        <dt>{t("server.info.baseUrl")}</dt>
        <dd className="mono">{origin}/v1</dd>
        <dt>{t("server.info.apiKey")}</dt>
        <dd data-testid="server-api-key">
          {keyOn === undefined ? "—" : keyOn ? t("server.info.keyOn") : t("server.info.keyOff")}
        </dd>
      </dl>
      {settings && settings.restart_required.length > 0 ? (
        <p className="field-hint">
          {t("server.info.restart", { fields: settingLabels(settings.restart_required, t) })}
        </p>
      ) : null}
    </Card>
  );
}
