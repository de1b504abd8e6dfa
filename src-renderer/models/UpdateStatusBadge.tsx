import { useTranslation } from "react-i18next";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import { formatDate } from "../format/formatDate.js";

/** Remote update status; only remote-backed models (HF / ModelScope) have one. */
export function UpdateStatusBadge({ model }: { model: ModelRow }) {
  const { t, i18n } = useTranslation();
  if (model.source !== "hf" && model.source !== "modelscope") return null;
  const status = model.update_status === "not_applicable" ? "unknown" : model.update_status;
  const checked = model.last_checked_at
    ? t("models.update.checkedAt", { date: formatDate(model.last_checked_at, i18n.language) })
    : t("models.update.neverChecked");
  const title = model.update_error ? `${checked} — ${model.update_error}` : checked;
  return (
    <span className={`badge badge-update badge-update-${status}`} title={title} data-testid="update-status">
      {t(`models.update.${status}`)}
    </span>
  );
}
