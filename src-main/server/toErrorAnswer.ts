import type { FastifyRequest } from "fastify";
import { anthropicErrorShape, isAnthropicPath } from "./anthropic/anthropicErrorShape.js";
import { isOllamaPath } from "./ollama/isOllamaPath.js";
import { errorCodeHeader, toOllamaError } from "./ollama/toOllamaError.js";
import { toApiError } from "./toApiError.js";

/** An error as one API face answers it: status, body and the headers that go with it. */
export interface ErrorAnswer {
  status: number;
  code: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Any thrown value as the API under `path` answers errors: Ollama's `{"error": "..."}` with the
 * stable code in `x-perch-error-code` under `/api`, Perch's documented shape everywhere else.
 * For answers written before or outside a route (413 while the body arrives, the request cut,
 * URLs the router cannot read), which no route's own error handler sees.
 */
export function toErrorAnswer(
  error: unknown,
  path: string,
  /** An Anthropic client on a route both APIs share (`GET /v1/models`): Anthropic's shape. */
  anthropicClient = false,
): ErrorAnswer {
  if (isOllamaPath(path)) {
    const { status, code, body } = toOllamaError(error);
    return { status, code, body, headers: { [errorCodeHeader]: code, ...retryHeaders(status) } };
  }
  const { status, body } = toApiError(error);
  return {
    status,
    code: body.error.code,
    body: isAnthropicPath(path) || anthropicClient ? anthropicErrorShape(body, status) : body,
    headers: retryHeaders(status),
  };
}

/**
 * `Retry-After` on a 429 (the queue was full): the openai and Anthropic SDKs wait that long before
 * their retry. A second: a queued request waits for a sequence to free, which takes about that.
 */
export function retryHeaders(status: number): Record<string, string> {
  return status === 429 ? { "retry-after": "1" } : {};
}

/** A request from an Anthropic SDK (it sends `anthropic-version`) to the models routes both APIs share. */
export function isAnthropicClientOnSharedRoute(request: FastifyRequest, path: string): boolean {
  return path.startsWith("/v1/models") && typeof request.headers["anthropic-version"] === "string";
}

/** The path a request is answered by: its route's pattern when it matched one, else its URL's path. */
export function answeredPath(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split("?")[0] ?? "";
}
