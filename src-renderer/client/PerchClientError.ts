/** A failed call, as data: the API's error code and message (or a transport-level one). */
export class PerchClientError extends Error {
  readonly code: string;
  readonly status: number;
  readonly param: string | null;
  readonly details?: unknown;

  constructor(
    code: string,
    message: string,
    options: { status?: number; param?: string | null; details?: unknown } = {},
  ) {
    super(message);
    this.name = "PerchClientError";
    this.code = code;
    this.status = options.status ?? 0;
    this.param = options.param ?? null;
    this.details = options.details;
  }

  /** From the API's `{error: {...}}` body. */
  static fromApiError(
    status: number,
    error: { code: string; message: string; param?: string | null; details?: unknown },
  ): PerchClientError {
    return new PerchClientError(error.code, error.message, {
      status,
      param: error.param ?? null,
      details: error.details,
    });
  }
}

/** Any thrown value as a `PerchClientError` (so state never holds an unknown). */
export function toClientError(error: unknown): PerchClientError {
  if (error instanceof PerchClientError) return error;
  if (error instanceof Error) return new PerchClientError("network_error", error.message);
  return new PerchClientError("unknown_error", String(error));
}
