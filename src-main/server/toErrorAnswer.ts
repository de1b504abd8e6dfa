import type { FastifyRequest } from "fastify";
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
export function toErrorAnswer(error: unknown, path: string): ErrorAnswer {
  if (isOllamaPath(path)) {
    const { status, code, body } = toOllamaError(error);
    return { status, code, body, headers: { [errorCodeHeader]: code } };
  }
  const { status, body } = toApiError(error);
  return { status, code: body.error.code, body, headers: {} };
}

/** The path a request is answered by: its route's pattern when it matched one, else its URL's path. */
export function answeredPath(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split("?")[0] ?? "";
}
