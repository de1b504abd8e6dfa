import type { ApiError, ErrorCode } from "../../src-shared/contracts/errors.js";
import { PerchError } from "../base/PerchError.js";

const typeByStatus = (status: number): string =>
  status === 401
    ? "authentication_error"
    : status === 403
      ? "permission_error"
      : status === 404
        ? "not_found_error"
        : status === 429
          ? "rate_limit_error"
          : status >= 500
            ? "server_error"
            : "invalid_request_error";

/** Maps any thrown value to the documented error shape and a status; never leaks a stack. */
export function toApiError(error: unknown): { status: number; body: ApiError } {
  let perchError: PerchError;
  if (error instanceof PerchError) perchError = error;
  else perchError = fromFastifyError(error);
  return {
    status: perchError.status,
    body: {
      error: {
        message: perchError.message,
        type: typeByStatus(perchError.status),
        code: perchError.code,
        param: perchError.param,
        ...(perchError.details === undefined ? {} : { details: perchError.details }),
      },
    },
  };
}

function fromFastifyError(error: unknown): PerchError {
  const candidate = error as { code?: string; statusCode?: number; message?: string } | null;
  const code = candidate?.code;
  const status = candidate?.statusCode;
  const map: Record<string, [ErrorCode, string]> = {
    FST_ERR_CTP_INVALID_JSON_BODY: ["invalid_json", "The request body is not valid JSON."],
    FST_ERR_CTP_EMPTY_JSON_BODY: ["invalid_json", "The request body is empty but declared as JSON."],
    FST_ERR_CTP_BODY_TOO_LARGE: ["body_too_large", "The request body is larger than the server accepts."],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [
      "unsupported_media_type",
      "Unsupported Content-Type; send application/json.",
    ],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["invalid_request", "Content-Length does not match the body."],
    FST_ERR_CTP_INVALID_TYPE: ["invalid_request", "Invalid Content-Type header."],
  };
  if (code && map[code]) {
    const [mapped, message] = map[code];
    return new PerchError(mapped, message);
  }
  if (candidate instanceof SyntaxError || code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return new PerchError("invalid_json", "The request body is not valid JSON.");
  }
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new PerchError("invalid_request", candidate?.message ?? "Bad request", { status });
  }
  return new PerchError("internal_error", "Internal server error.");
}
