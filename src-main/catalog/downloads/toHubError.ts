import { PerchError } from "../../base/PerchError.js";

/**
 * How a hub request was sent: with the user's token, without one (setting one may help), or to a
 * hub Perch sends no token to (ModelScope: public repos only).
 */
export type HubAuth = "token" | "anonymous" | "none";

/**
 * Maps a hub failure to the API's error: a missing repo, revision or file is `not_found`
 * (404); anything else (network, 5xx, bad answers) is `upstream_error` (502). Already typed
 * errors pass through. A refusal's advice follows `auth`: set a token only where none was sent.
 */
export function toHubError(error: unknown, what: string, auth: HubAuth): PerchError {
  if (error instanceof PerchError) return error;
  const candidate = error as { statusCode?: number; status?: number; message?: string; name?: string } | null;
  const status = candidate?.statusCode ?? candidate?.status;
  const reason = candidate?.message ?? String(error);
  if (candidate?.name === "AbortError") return new PerchError("cancelled", `${what}: cancelled`);
  if (status === 404) return new PerchError("not_found", `${what}: not found on the hub (${reason})`);
  if ((status === 401 || status === 403) && /not.?found/i.test(reason)) {
    // Hugging Face answers a missing repo like a private one (401, RepoNotFound): a typo must not
    // send the user off to set a token only.
    return new PerchError(
      "not_found",
      `${what}: the hub has no such repo, or it is private or gated (it answers ${status} for both): check the name; ${accessAdvice(auth)}`,
    );
  }
  if (status === 401 || status === 403) {
    return new PerchError(
      "upstream_error",
      `${what}: the hub refused access (${status}); the repo may be gated or private: ${accessAdvice(auth)}`,
    );
  }
  return new PerchError(
    "upstream_error",
    `${what}: ${status ? `hub answered ${status}: ` : ""}${reason}`.slice(0, 500),
  );
}

function accessAdvice(auth: HubAuth): string {
  switch (auth) {
    case "token":
      return "for a private or gated repo, the Hugging Face token in use (HF_TOKEN or the settings) has no access to it: accept the repo's terms on its page, or use a token of an account that has access";
    case "anonymous":
      return "for a private or gated repo set HF_TOKEN (or the Hugging Face token in the settings) to an account that has access";
    case "none":
      return "Perch downloads public repos only from this hub";
  }
}
