import type { ApiError } from "../../../src-shared/contracts/errors.js";

/** Anthropic's error envelope is `{type: "error", error: {...}}`; ours rides inside it. */
export const anthropicErrorShape = (body: ApiError) => ({ type: "error" as const, ...body });

/** Whether a path is one of the Anthropic routes, whose errors take Anthropic's envelope. */
export function isAnthropicPath(path: string): boolean {
  return path === "/v1/messages" || path.startsWith("/v1/messages/");
}
