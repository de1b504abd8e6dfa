import { useTranslation } from "react-i18next";
import { PageHeader } from "../components/PageHeader.js";
import { ActivityCard } from "./ActivityCard.js";
import { EndpointsCard } from "./EndpointsCard.js";
import { HealthCard } from "./HealthCard.js";
import { LoadedModelsCard } from "./LoadedModelsCard.js";
import { ServerInfoCard } from "./ServerInfoCard.js";

/** Address, auth, the URLs to give each kind of client, loaded models, load and throughput. */
export function ServerPage() {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="server-page">
      <PageHeader title={t("server.title")} subtitle={t("server.subtitle")} />
      <div className="two-columns">
        <ServerInfoCard />
        <ActivityCard />
      </div>
      <EndpointsCard />
      <LoadedModelsCard />
      <HealthCard />
    </div>
  );
}
