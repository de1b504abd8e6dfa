import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
import { communityPayloadFields } from "./benchmarkCatalog.js";
import { flattenPayload } from "./flattenPayload.js";

/**
 * The opt-in "Upload to community benchmarks" checkbox (unchecked until the user chooses; the
 * choice is remembered) with a preview of exactly what would be sent, and why it would be skipped.
 */
export function UploadChoice({ modelId }: { modelId: string }) {
  const { t } = useTranslation();
  const upload = usePerch((state) => state.uploadChoice);
  const setUpload = usePerch((state) => state.setUploadChoice);
  const preview = usePerch((state) => state.uploadPreview);
  const loadPreview = usePerch((state) => state.loadUploadPreview);

  useEffect(() => {
    if (modelId) void loadPreview(modelId);
  }, [modelId, loadPreview]);

  const fields: [string, string][] = preview.payload
    ? flattenPayload(preview.payload)
    : communityPayloadFields.map((field) => [field, "…"]);

  return (
    <div className="upload-choice">
      <label className="checkbox-line">
        <input
          type="checkbox"
          checked={upload}
          onChange={(event) => void setUpload(event.target.checked)}
          data-testid="upload-checkbox"
        />
        <span>{t("bench.upload.label")}</span>
      </label>
      {preview.skipReason ? (
        <div className="notice notice-warning" data-testid="upload-skip-reason" title={preview.skipReason}>
          {t("bench.upload.skipped", {
            reason: preview.skipCode
              ? t(`bench.upload.skip.${preview.skipCode}`, { defaultValue: preview.skipReason })
              : preview.skipReason,
          })}
        </div>
      ) : null}
      <details className="upload-preview" data-testid="upload-preview">
        <summary>{t("bench.upload.preview")}</summary>
        <p className="field-hint">
          {preview.payload ? t("bench.upload.exactly") : t("bench.upload.fieldsOnly")}
        </p>
        {preview.status === "error" && preview.error ? (
          <p className="field-hint">{preview.error.message}</p>
        ) : null}
        <table className="table table-compact kv-table">
          <tbody>
            {fields.map(([field, value]) => (
              <tr key={field} data-testid="upload-preview-field">
                <th scope="row" className="mono">
                  {field}
                </th>
                <td className="mono">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="field-hint">{t("bench.upload.never")}</p>
      </details>
    </div>
  );
}
