import { useTranslation } from "react-i18next";
import type { ErrorInfo } from "../store/ErrorInfo.js";

/** A failure shown where it happened, with the server's message (Perch not answering: in words). */
export function ErrorNote({ error, testId }: { error: ErrorInfo | null; testId?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <div className="error-note" role="alert" data-testid={testId}>
      {error.code === "network_error" ? t("common.unreachable") : error.message}
    </div>
  );
}
