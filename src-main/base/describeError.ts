import type { ErrorCode } from "../../src-shared/contracts/errors.js";
import { PerchError } from "./PerchError.js";

/** The message of anything thrown (an `Error`'s message, else its string form), cut at `maxLength`. */
export function errorMessage(error: unknown, maxLength = Number.POSITIVE_INFINITY): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > maxLength ? `${message.slice(0, maxLength)}…` : message;
}

/**
 * `{code, message}` of anything thrown: a `PerchError` keeps its stable code; anything else is our
 * own machinery failing, so it gets `fallback` (by default `internal_error`), never a model's code.
 */
export function describeError(
  error: unknown,
  fallback: ErrorCode = "internal_error",
): { code: ErrorCode; message: string } {
  return { code: error instanceof PerchError ? error.code : fallback, message: errorMessage(error) };
}

/** The error as a `PerchError`: itself when it is one, else wrapped with `fallback`'s code. */
export function toPerchError(error: unknown, fallback: ErrorCode = "internal_error"): PerchError {
  return error instanceof PerchError ? error : new PerchError(fallback, errorMessage(error));
}
