import { PerchError } from "../../base/PerchError.js";

/**
 * The run id a `conflict` from `DownloadManager.start` names when the same model is already
 * downloading (`details.run_id`), so a second pull follows that run instead of failing.
 */
export function runningDownloadOf(error: unknown): string | undefined {
  if (!(error instanceof PerchError) || error.code !== "conflict") return undefined;
  const runId = (error.details as { run_id?: unknown } | undefined)?.run_id;
  return typeof runId === "string" ? runId : undefined;
}
