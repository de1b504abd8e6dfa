import type { ErrorCode } from "../../src-shared/contracts/errors.js";
import { PerchError } from "./PerchError.js";

/** The message of anything thrown (an `Error`'s message, else its string form), cut at `maxLength`. */
export function errorMessage(error: unknown, maxLength = Number.POSITIVE_INFINITY): string {
  const message = error instanceof Error ? withNetworkCause(error) : String(error);
  return message.length > maxLength ? `${message.slice(0, maxLength)}…` : message;
}

/**
 * Node's `fetch` says only "fetch failed"; why is in its `cause` (a refused connection, a host
 * name that does not resolve: the machine is offline, a timeout). That reason is the message.
 */
function withNetworkCause(error: Error): string {
  if (error.message !== "fetch failed" || typeof error.cause !== "object" || error.cause === null)
    return error.message;
  const cause = error.cause as { message?: unknown; code?: unknown; errors?: { message?: unknown }[] };
  const code = typeof cause.code === "string" ? cause.code : undefined;
  const detail =
    (typeof cause.message === "string" && cause.message) ||
    (typeof cause.errors?.[0]?.message === "string" && cause.errors[0].message) ||
    code;
  if (!detail) return error.message;
  const hint =
    code === "ENOTFOUND" || code === "EAI_AGAIN"
      ? " (the host name does not resolve: is this machine offline?)"
      : code === "ECONNREFUSED"
        ? " (nothing answers at that address)"
        : code?.includes("TIMEOUT")
          ? " (no answer in time)"
          : "";
  return `fetch failed: ${detail}${hint}`;
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
