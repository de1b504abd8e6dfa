import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { CopyButton } from "../components/CopyButton.js";
import { usePerch } from "../store/usePerch.js";
import { clientEndpoints, serverOrigin } from "./clientEndpoints.js";

/** The base URL each kind of client should be given, from where the server really listens. */
export function EndpointsCard() {
  const { t } = useTranslation();
  const settings = usePerch((state) => state.globalSettings);
  const { origin } = serverOrigin(window.location, settings);
  return (
    <Card title={t("server.endpoints.title")} testId="server-endpoints">
      <p className="field-hint">{t("server.endpoints.hint")}</p>
      <dl className="facts endpoint-list">
        {clientEndpoints(origin).map((endpoint) => (
          <div key={endpoint.api} className="endpoint-row" data-testid={`endpoint-${endpoint.api}`}>
            <dt>{t(`server.endpoints.${endpoint.api}`)}</dt>
            <dd>
              <code className="mono endpoint-url">{endpoint.url}</code>
              <CopyButton
                text={endpoint.url}
                label={t(`server.endpoints.${endpoint.api}`)}
                testId={`copy-${endpoint.api}`}
              />
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
