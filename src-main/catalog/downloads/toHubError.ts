import { PerchError } from "../../base/PerchError.js";

/**
 * Maps a hub failure to the API's error: a missing repo, revision or file is `not_found`
 * (404); anything else (network, 5xx, bad answers) is `upstream_error` (502). Already typed
 * errors pass through.
 */
export function toHubError(error: unknown, what: string): PerchError {
  if (error instanceof PerchError) return error;
  const candidate = error as { statusCode?: number; status?: number; message?: string; name?: string } | null;
  const status = candidate?.statusCode ?? candidate?.status;
  const reason = candidate?.message ?? String(error);
  if (candidate?.name === "AbortError") return new PerchError("cancelled", `${what}: cancelled`);
  if (status === 404) return new PerchError("not_found", `${what}: not found on the hub (${reason})`);
  if ((status === 401 || status === 403) && /not.?found/i.test(reason)) {
    // Hugging Face answers a missing repo like a private one to anonymous requests (401,
    // RepoNotFound): a typo must not send the user off to set a token only.
    return new PerchError(
      "not_found",
      `${what}: the hub has no such repo, or it is private or gated (it answers ${status} for both): check the name; for a private or gated repo set HF_TOKEN (or the Hugging Face token in the settings) to an account that has access`,
    );
  }
  if (status === 401 || status === 403) {
    return new PerchError(
      "upstream_error",
      `${what}: the hub refused access (${status}); the repo may be gated or private: set HF_TOKEN (or the Hugging Face token in the settings) to an account that has access`,
    );
  }
  return new PerchError(
    "upstream_error",
    `${what}: ${status ? `hub answered ${status}: ` : ""}${reason}`.slice(0, 500),
  );
}
