import type { z } from "zod";
import { PerchError } from "./PerchError.js";

/**
 * Validates untrusted input with a contract schema. Every route calls this on its body, params
 * and query, so bad input becomes a typed 400 (`invalid_request`) and never reaches the services.
 */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown, where = "body"): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map(reportedIssue);
  const first = issues[0];
  const param = first && first.path.length > 0 ? first.path.map(String).join(".") : undefined;
  const message = first
    ? `Invalid ${where}${param ? ` at '${param}'` : ""}: ${first.message}`
    : `Invalid ${where}`;
  throw new PerchError("invalid_request", message, {
    param,
    details: issues.slice(0, 10).map((issue) => ({ path: issue.path.map(String), message: issue.message })),
  });
}

/**
 * The issue to report. A union whose input's type ruled out every branch but one (a list where
 * a string or a list is allowed) is reported by that branch's own first issue, at its path:
 * `messages.1.content.0.input`, not the union's "content is a string or a list of ..." for a list
 * with one bad member. A branch that failed as a union itself (no block type matched) keeps the
 * union's own message, which says what is allowed.
 */
function reportedIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
  if (issue.code !== "invalid_union" || issue.errors.length < 2) return issue;
  const ruledOut = (branch: z.core.$ZodIssue[]) =>
    branch.length === 1 && branch[0]!.code === "invalid_type" && branch[0]!.path.length === 0;
  const left = issue.errors.filter((branch) => !ruledOut(branch));
  const inner = left.length === 1 ? left[0]![0] : undefined;
  if (!inner || inner.path.length === 0 || inner.code === "invalid_union") return issue;
  return { path: [...issue.path, ...inner.path], message: inner.message };
}
