import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RemoteSource } from "../../src-shared/contracts/catalog.js";
import { Card } from "../components/Card.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { formatBytes } from "../../src-shared/text/formatBytes.js";
import { usePerch } from "../store/usePerch.js";
import { DownloadProgressList } from "./DownloadProgressList.js";

/** Pick a GGUF from a Hugging Face or ModelScope repo and download it, with progress. */
export function DownloadPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [source, setSource] = useState<RemoteSource>("hf");
  const [repo, setRepo] = useState("");
  const repoFiles = usePerch((state) => state.repoFiles);
  const browseRepo = usePerch((state) => state.browseRepo);
  const startDownload = usePerch((state) => state.startDownload);
  const listing = repoFiles.listing;
  const loadDownloads = usePerch((state) => state.loadDownloads);
  useEffect(() => {
    void loadDownloads();
  }, [loadDownloads]);

  return (
    <Card
      title={t("download.title")}
      testId="download-panel"
      actions={
        <button type="button" className="button button-small" onClick={onClose}>
          {t("common.close")}
        </button>
      }
    >
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (repo.trim()) void browseRepo(source, repo.trim());
        }}
      >
        <label className="field-inline">
          <span>{t("download.source")}</span>
          <select
            value={source}
            onChange={(event) => setSource(event.target.value as RemoteSource)}
            data-testid="download-source"
          >
            <option value="hf">Hugging Face</option>
            <option value="modelscope">ModelScope</option>
          </select>
        </label>
        <label className="field-inline field-grow">
          <span>{t("download.repo")}</span>
          <input
            value={repo}
            placeholder="Qwen/Qwen2.5-0.5B-Instruct-GGUF"
            onChange={(event) => setRepo(event.target.value)}
            data-testid="download-repo"
          />
        </label>
        <button type="submit" className="button" disabled={!repo.trim() || repoFiles.status === "loading"}>
          {repoFiles.status === "loading" ? t("download.listing") : t("download.list")}
        </button>
      </form>
      <ErrorNote error={repoFiles.error} />
      {listing ? (
        listing.ggufs.length === 0 ? (
          <p className="muted">{t("download.noGguf")}</p>
        ) : (
          <table className="table table-compact">
            <thead>
              <tr>
                <th>{t("download.file")}</th>
                <th>{t("download.quant")}</th>
                <th className="num">{t("download.size")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {listing.ggufs.map((gguf) => (
                <tr key={gguf.file}>
                  <td className="mono">
                    {gguf.file}
                    {gguf.files.length > 1 ? ` (+${gguf.files.length - 1})` : ""}
                  </td>
                  <td>{gguf.quant ?? "—"}</td>
                  <td className="num">{formatBytes(gguf.size)}</td>
                  <td className="num">
                    <button
                      type="button"
                      className="button button-small button-primary"
                      onClick={() =>
                        void startDownload({ source: listing.source, repo: listing.repo, file: gguf.file })
                      }
                    >
                      {t("download.start")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <DownloadProgressList />
    </Card>
  );
}
