import { useTranslation } from "react-i18next";
import { issueMessage } from "../i18n/issueMessage.js";
import type { ErrorInfo } from "../store/ErrorInfo.js";

/**
 * A failure shown where it happened, with the server's message (Perch not answering: in words).
 * A request the contract refused names each field with its problem in the page's language (it
 * showed zod's English sentence, "Invalid body at 'sample_size': Too big: …", in German too);
 * `labels` gives a field's path the name its form shows.
 */
export function ErrorNote({
  error,
  testId,
  labels,
}: {
  error: ErrorInfo | null;
  testId?: string;
  labels?: Record<string, string>;
}) {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  const fieldIssues = error.code === "invalid_request" ? tightestPerField(error.fields) : [];
  return (
    <div className="error-note" role="alert" data-testid={testId}>
      {error.code === "network_error"
        ? t("common.unreachable")
        : fieldIssues.length > 0
          ? fieldIssues
              .map(
                (field) =>
                  `${labels?.[field.path] ?? field.path}: ${issueMessage(field.issue, field.message, t, i18n.language)}`,
              )
              .join(" · ")
          : error.message}
    </div>
  );
}

/**
 * One problem per field, the one that says most: a number past the safe range fails the whole-
 * number check (at most 9007199254740991) and the field's own limit (at most 100000), the
 * smaller limit is the one to show.
 */
function tightestPerField(fields: ErrorInfo["fields"]): ErrorInfo["fields"] {
  const kept = new Map<string, ErrorInfo["fields"][number]>();
  for (const field of fields) {
    if (!field.issue) continue;
    const seen = kept.get(field.path);
    if (!seen?.issue) {
      kept.set(field.path, field);
      continue;
    }
    const [a, b] = [seen.issue, field.issue];
    const tighter =
      (a.code === "too_big" && b.code === "too_big" && (b.maximum ?? Infinity) < (a.maximum ?? Infinity)) ||
      (a.code === "too_small" &&
        b.code === "too_small" &&
        (b.minimum ?? -Infinity) > (a.minimum ?? -Infinity));
    if (tighter) kept.set(field.path, field);
  }
  return [...kept.values()];
}
