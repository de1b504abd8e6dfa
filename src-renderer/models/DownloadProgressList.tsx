import { useTranslation } from "react-i18next";
import { ProgressBar } from "../components/ProgressBar.js";
import { formatBytes } from "../../src-shared/text/formatBytes.js";
import { usePerch } from "../store/usePerch.js";

/** Downloads of this session, with live progress and cancel. */
export function DownloadProgressList() {
  const { t } = useTranslation();
  const downloads = usePerch((state) => state.downloads);
  const cancelDownload = usePerch((state) => state.cancelDownload);
  const resumeDownload = usePerch((state) => state.resumeDownload);
  if (downloads.length === 0) return null;
  return (
    <ul className="download-list">
      {downloads.map((download) => (
        <li key={download.runId} className="download-item" data-testid="download-item">
          <div className="download-head">
            <strong>{download.modelId ?? download.repo}</strong>
            <span className={`status status-${download.status}`}>
              {t(`download.status.${download.status}`)}
            </span>
          </div>
          <ProgressBar
            value={download.totalBytes > 0 ? download.downloadedBytes / download.totalBytes : null}
          />
          <div className="download-meta">
            <span>
              {formatBytes(download.downloadedBytes)} / {formatBytes(download.totalBytes)}
              {download.status === "running" && download.bytesPerSecond > 0
                ? ` · ${formatBytes(download.bytesPerSecond)}/s`
                : ""}
            </span>
            {download.error ? <span className="error-text">{download.error}</span> : null}
            {download.status === "running" ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => void cancelDownload(download.runId)}
              >
                {t("common.cancel")}
              </button>
            ) : null}
            {download.status === "failed" || download.status === "cancelled" ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => void resumeDownload(download.runId)}
              >
                {t("download.resume")}
              </button>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
