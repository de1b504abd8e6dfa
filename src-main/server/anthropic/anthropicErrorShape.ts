import type { ApiError } from "../../../src-shared/contracts/errors.js";

/**
 * Anthropic's error `type` for a status where it differs from Perch's (`server_error` and the
 * 4xx types stay): its SDKs and docs name these.
 */
function anthropicType(status: number | undefined, type: string): string {
  if (status === undefined) return type === "server_error" ? "api_error" : type;
  if (status === 413) return "request_too_large";
  if (status === 503 || status === 529) return "overloaded_error";
  if (status === 504) return "timeout_error";
  if (status >= 500) return "api_error";
  return type;
}

/**
 * Anthropic's error envelope is `{type: "error", error: {...}}`; ours rides inside it, with
 * Anthropic's error types (`api_error`, `overloaded_error`, `request_too_large`...).
 */
export const anthropicErrorShape = (body: ApiError, status?: number) => ({
  type: "error" as const,
  ...body,
  error: { ...body.error, type: anthropicType(status, body.error.type) },
});

/** Whether a path is one of the Anthropic routes, whose errors take Anthropic's envelope. */
export function isAnthropicPath(path: string): boolean {
  return path === "/v1/messages" || path.startsWith("/v1/messages/");
}
