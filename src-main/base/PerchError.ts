import type { ErrorCode } from "../../src-shared/contracts/errors.js";

const defaultStatus: Record<ErrorCode, number> = {
  invalid_json: 400,
  invalid_request: 400,
  body_too_large: 413,
  unsupported_media_type: 415,
  not_found: 404,
  model_not_found: 404,
  result_not_found: 404,
  run_not_found: 404,
  invalid_id: 400,
  context_length_exceeded: 400,
  queue_full: 429,
  conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  model_load_failed: 500,
  insufficient_memory: 507,
  generation_failed: 500,
  cancelled: 499,
  upstream_error: 502,
  storage_error: 500,
  internal_error: 500,
  // A prerequisite of the machine, not of the request: the message says how to install it.
  python_missing: 409,
  // A downloaded file that is not a readable GGUF: the hub served it, but no model can be made of it.
  invalid_model_file: 422,
  // The answer was cut by a shutdown (or came during one): retry once the server is back.
  server_shutting_down: 503,
};

/**
 * The request field an error points at when the thrower names none, so one code answers the same
 * `param` on every route (an unknown model is `model` whether /v1 or an admin route found out).
 */
const defaultParam: Partial<Record<ErrorCode, string>> = {
  model_not_found: "model",
};

/** An error that is part of the contract: it carries a stable code and an HTTP status. */
export class PerchError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | null;
  readonly details?: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    options: { status?: number; param?: string; details?: unknown } = {},
  ) {
    super(message);
    this.name = "PerchError";
    this.code = code;
    this.status = options.status ?? defaultStatus[code];
    this.param = options.param ?? defaultParam[code] ?? null;
    this.details = options.details;
  }
}
