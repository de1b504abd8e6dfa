import { useTranslation } from "react-i18next";
import { PageHeader } from "../components/PageHeader.js";
import { ActivityCard } from "./ActivityCard.js";
import { HealthCard } from "./HealthCard.js";
import { LoadedModelsCard } from "./LoadedModelsCard.js";
import { ServerInfoCard } from "./ServerInfoCard.js";

/** Address, auth, loaded models, load and throughput. */
export function ServerPage() {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="server-page">
      <PageHeader title={t("server.title")} subtitle={t("server.subtitle")} />
      <div className="two-columns">
        <ServerInfoCard />
        <ActivityCard />
      </div>
      <LoadedModelsCard />
      <HealthCard />
    </div>
  );
}
