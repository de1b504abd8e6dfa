import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { usePerch } from "../store/usePerch.js";

/** Only in the desktop app: launch at login and starting the server with the app. */
export function AppPreferencesCard() {
  const { t } = useTranslation();
  const preferences = usePerch((state) => state.appPreferences);
  const save = usePerch((state) => state.saveAppPreferences);
  if (!preferences) return null;
  return (
    <Card title={t("global.app")} testId="app-preferences">
      <label className="checkbox-line">
        <input
          type="checkbox"
          checked={preferences.launch_at_login}
          onChange={(event) => void save({ launch_at_login: event.target.checked })}
        />
        <span>{t("global.launchAtLogin")}</span>
      </label>
      <label className="checkbox-line">
        <input
          type="checkbox"
          checked={preferences.serve_on_launch}
          onChange={(event) => void save({ serve_on_launch: event.target.checked })}
        />
        <span>{t("global.serveOnLaunch")}</span>
      </label>
    </Card>
  );
}
