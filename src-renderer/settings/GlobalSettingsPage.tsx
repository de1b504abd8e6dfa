import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { GlobalSettingsResponse } from "../../src-shared/contracts/settings.js";
import { Card } from "../components/Card.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { PageHeader } from "../components/PageHeader.js";
import type { ErrorInfo } from "../store/ErrorInfo.js";
import { usePerch } from "../store/usePerch.js";
import { AppPreferencesCard } from "./AppPreferencesCard.js";
import { NumberField } from "./NumberField.js";

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

function GlobalSettingsForm({ current }: { current: GlobalSettingsResponse }) {
  const { t } = useTranslation();
  const save = usePerch((state) => state.saveGlobalSettings);
  const [port, setPort] = useState(String(current.settings.port));
  const [dirs, setDirs] = useState(current.settings.models_dirs.join("\n"));
  const [ttl, setTtl] = useState(String(current.settings.default_ttl_seconds));
  const [uploadUrl, setUploadUrl] = useState(current.settings.community_upload_url ?? "");
  const [error, setError] = useState<ErrorInfo | null>(null);
  const errorAt = (path: string) => error?.fields.find((field) => field.path.startsWith(path))?.message;

  return (
    <Card title={t("global.server")}>
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save({
            port: Number(port),
            models_dirs: dirs
              .split("\n")
              .map((line) => line.trim())
              .filter(Boolean),
            default_ttl_seconds: Number(ttl),
            community_upload_url: uploadUrl.trim() || null,
          }).then(setError);
        }}
      >
        {error && error.fields.length === 0 ? <ErrorNote error={error} /> : null}
        <div className="field-grid">
          <NumberField
            label={t("global.port")}
            value={port}
            step="1"
            onChange={setPort}
            error={errorAt("port")}
            hint={t("global.restartHint")}
          />
          <NumberField
            label={t("global.ttl")}
            value={ttl}
            step="1"
            onChange={setTtl}
            error={errorAt("default_ttl_seconds")}
          />
        </div>
        <label className={errorAt("models_dirs") ? "field field-invalid" : "field"}>
          <span className="field-label">{t("global.modelsDirs")}</span>
          <textarea
            rows={3}
            value={dirs}
            placeholder={current.effective.models_dirs.join("\n")}
            onChange={(event) => setDirs(event.target.value)}
          />
          <span className={errorAt("models_dirs") ? "field-error" : "field-hint"}>
            {errorAt("models_dirs") ?? t("global.modelsDirsHint")}
          </span>
        </label>
        <label className={errorAt("community_upload_url") ? "field field-invalid" : "field"}>
          <span className="field-label">{t("global.uploadUrl")}</span>
          <input
            value={uploadUrl}
            placeholder="https://"
            onChange={(event) => setUploadUrl(event.target.value)}
          />
          {errorAt("community_upload_url") ? (
            <span className="field-error">{errorAt("community_upload_url")}</span>
          ) : null}
        </label>
        <div className="form-actions">
          <button type="submit" className="button button-primary">
            {t("common.save")}
          </button>
        </div>
      </form>
    </Card>
  );
}
