import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { formatDate } from "../format/formatDate.js";
import { usePerch } from "../store/usePerch.js";

/** Warnings the server raised (corrupt files moved aside, missing models...). */
export function HealthCard() {
  const { t, i18n } = useTranslation();
  const health = usePerch((state) => state.health);
  if (!health || health.warnings.length === 0) return null;
  return (
    <Card title={t("server.health.title")} testId="health-warnings">
      <ul className="warning-list">
        {health.warnings.map((warning, index) => (
          <li key={`${warning.at}-${index}`}>
            <span className="badge badge-warning">{warning.code}</span> {warning.message}
            <span className="muted"> · {formatDate(warning.at, i18n.language)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
