import { useTranslation } from "react-i18next";
import { ErrorNote } from "../components/ErrorNote.js";
import { PageHeader } from "../components/PageHeader.js";
import { usePerch } from "../store/usePerch.js";
import { AppPreferencesCard } from "./AppPreferencesCard.js";
import { GlobalSettingsForm } from "./GlobalSettingsForm.js";

/** Server-wide settings (shared with `perch serve`), and the desktop app's own preferences. */
export function GlobalSettingsPage() {
  const { t } = useTranslation();
  const settings = usePerch((state) => state.globalSettings);
  const error = usePerch((state) => state.settingsError);
  return (
    <div className="page" data-testid="settings-page">
      <PageHeader title={t("global.title")} subtitle={t("global.subtitle")} />
      <ErrorNote error={error} />
      {settings ? <GlobalSettingsForm key={JSON.stringify(settings.settings)} current={settings} /> : null}
      <AppPreferencesCard />
    </div>
  );
}
