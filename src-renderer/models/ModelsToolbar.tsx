import { useTranslation } from "react-i18next";
import { BusyButton } from "../components/BusyButton.js";
import { usePerch } from "../store/usePerch.js";

/** Header actions: Reload runtime, Rescan disk, Check remote updates, Download. */
export function ModelsToolbar({ onDownload }: { onDownload: () => void }) {
  const { t } = useTranslation();
  const busy = usePerch((state) => state.headerBusy);
  const reloadRuntime = usePerch((state) => state.reloadRuntime);
  const rescanDisk = usePerch((state) => state.rescanDisk);
  const checkRemoteUpdates = usePerch((state) => state.checkRemoteUpdates);
  return (
    <div className="toolbar">
      <BusyButton
        className="button"
        unavailable={busy !== null}
        onClick={() => void reloadRuntime()}
        data-testid="reload-runtime"
      >
        {busy === "reload" ? <span className="spinner" aria-hidden="true" /> : null}
        {t("models.header.reload")}
      </BusyButton>
      <BusyButton
        className="button"
        unavailable={busy !== null}
        onClick={() => void rescanDisk()}
        data-testid="rescan-disk"
      >
        {busy === "rescan" ? <span className="spinner" aria-hidden="true" /> : null}
        {t("models.header.rescan")}
      </BusyButton>
      <BusyButton
        className="button"
        unavailable={busy !== null}
        onClick={() => void checkRemoteUpdates()}
        data-testid="check-remote-updates"
      >
        {busy === "check" ? <span className="spinner" aria-hidden="true" /> : null}
        {t("models.header.checkUpdates")}
      </BusyButton>
      <button
        type="button"
        className="button button-primary"
        onClick={onDownload}
        data-testid="open-download"
      >
        {t("models.header.download")}
      </button>
    </div>
  );
}
