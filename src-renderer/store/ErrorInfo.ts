import { toClientError } from "../client/PerchClientError.js";
import { fieldIssueOf, type FieldIssue } from "../i18n/issueMessage.js";

/** A failure kept in state: plain data, rendered by the component that owns the action. */
export interface ErrorInfo {
  code: string;
  message: string;
  status: number;
  param: string | null;
  /**
   * Field paths the server (or the client's own validation) rejected, with messages, and what
   * the check found (`issue`) where it said so, for a message in the page's language.
   */
  fields: { path: string; message: string; issue?: FieldIssue }[];
}

export function toErrorInfo(error: unknown): ErrorInfo {
  const clientError = toClientError(error);
  const fields: ErrorInfo["fields"] = [];
  if (Array.isArray(clientError.details)) {
    for (const detail of clientError.details as unknown[]) {
      const entry = detail as { path?: unknown; message?: unknown };
      if (Array.isArray(entry.path) && typeof entry.message === "string") {
        const issue = fieldIssueOf(detail);
        fields.push({
          path: entry.path.map(String).join("."),
          message: entry.message,
          ...(issue ? { issue } : {}),
        });
      }
    }
  }
  if (fields.length === 0 && clientError.param) {
    fields.push({ path: clientError.param, message: clientError.message });
  }
  return {
    code: clientError.code,
    message: clientError.message,
    status: clientError.status,
    param: clientError.param,
    fields,
  };
}
