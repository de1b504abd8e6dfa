import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { starterDownloadRequest, starterModels } from "../../src-shared/catalog/starterModels.js";
import { Card } from "../components/Card.js";
import { formatBytes } from "../../src-shared/text/formatBytes.js";
import { usePerch } from "../store/usePerch.js";
import { addOnboardingMessages, onboardingNamespace } from "./onboardingMessages.js";

/**
 * Shown while there is no model: a few small instruct models to download through the download
 * manager, or a folder of existing GGUF files to add to settings.json's model folders.
 */
/**
 * One empty list for "settings not loaded yet": a selector that returns a new `[]` on every call
 * makes zustand re-render forever (React error 185, "Maximum update depth exceeded").
 */
const noFolders: string[] = [];

export function FirstRunCard() {
  const { i18n } = useTranslation();
  addOnboardingMessages(i18n);
  // Its own namespace (onboardingMessages.ts), not the shared locale files: hence not `t`.
  const { t: tOnboarding } = useTranslation(onboardingNamespace);
  const startDownload = usePerch((state) => state.startDownload);
  const saveGlobalSettings = usePerch((state) => state.saveGlobalSettings);
  const rescanDisk = usePerch((state) => state.rescanDisk);
  const modelsDirs = usePerch((state) => state.globalSettings?.settings.models_dirs ?? noFolders);
  const [folder, setFolder] = useState("");

  const addFolder = async (event: FormEvent) => {
    event.preventDefault();
    const error = await saveGlobalSettings({ models_dirs: [...modelsDirs, folder.trim()] });
    if (!error) {
      setFolder("");
      await rescanDisk();
    }
  };

  return (
    <Card title={tOnboarding("title")} testId="first-run" className="first-run">
      <p className="muted">{tOnboarding("intro")}</p>
      <ul className="first-run-models">
        {starterModels.map((model) => (
          <li key={model.repo}>
            <div>
              <strong>{model.name}</strong>
              <span className="muted">
                {" "}
                {model.quant} · {tOnboarding("size", { size: formatBytes(model.approximate_bytes) })} ·{" "}
                <a href={model.licence_url} target="_blank" rel="noreferrer">
                  {tOnboarding("licence", { licence: model.licence })}
                </a>
              </span>
            </div>
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => void startDownload(starterDownloadRequest(model))}
            >
              {tOnboarding("download")}
            </button>
          </li>
        ))}
      </ul>
      <form className="first-run-folder" onSubmit={(event) => void addFolder(event)}>
        <label>
          <span>{tOnboarding("folderLabel")}</span>
          <input
            value={folder}
            placeholder="/Users/me/models"
            onChange={(event) => setFolder(event.target.value)}
          />
        </label>
        <button type="submit" className="button" disabled={!folder.trim()}>
          {tOnboarding("addFolder")}
        </button>
      </form>
    </Card>
  );
}
