import type { FastifyReply } from "fastify";
import { logServerError } from "../logServerError.js";
import { retryHeaders } from "../toErrorAnswer.js";
import { toApiError } from "../toApiError.js";

/** Header carrying Perch's stable error code beside Ollama's `{"error": "..."}` body. */
export const errorCodeHeader = "x-perch-error-code";

/**
 * Any thrown value in Ollama's error shape: `{"error": "<message>"}` with the status Perch gives
 * it; the stable code (`src-shared/contracts/errors.ts`) travels in `x-perch-error-code`.
 */
export function toOllamaError(error: unknown): { status: number; code: string; body: { error: string } } {
  const { status, body } = toApiError(error);
  // Ollama's own words for an unknown model, whichever layer found it missing: apps match them.
  const missing =
    body.error.code === "model_not_found" && /^Model ('.*') not found\.$/s.exec(body.error.message);
  const message = missing ? `model ${missing[1]} not found` : body.error.message;
  return { status, code: body.error.code, body: { error: message } };
}

/** Answers `error` in Ollama's shape, with `Retry-After` on a 429 as a stream's refusal has. */
export function sendOllamaError(reply: FastifyReply, error: unknown): void {
  const { status, code, body } = toOllamaError(error);
  logServerError(reply.request, reply, error, status);
  void reply
    .status(status)
    .headers({ [errorCodeHeader]: code, ...retryHeaders(status) })
    .send(body);
}
