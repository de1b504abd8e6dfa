import type { ErrorCode } from "../../src-shared/contracts/errors.js";
import { describeError } from "../base/describeError.js";
import { PerchError } from "../base/PerchError.js";
import { SettingsUnreadableError } from "../settings/SettingsUnreadableError.js";

/** A file the user named that is not there, or not usable: their input, not our machinery. */
const fileErrorCodes: Record<string, ErrorCode> = {
  ENOENT: "not_found",
  ENOTDIR: "invalid_request",
  EISDIR: "invalid_request",
  EACCES: "storage_error",
  EPERM: "storage_error",
  EROFS: "storage_error",
  ENOSPC: "storage_error",
};

/**
 * Prints `perch <command>: <message> (<code>)` on stderr and answers the exit code: 130 for a
 * cancelled run (as after Ctrl-C), 78 for an unreadable settings.json (as `perch serve`), 1
 * otherwise. Never a stack: errors that are not ours keep
 * only their message; a file-system error on a path gets the code of what it means (a missing
 * `--dataset` file is `not_found`, a read-only folder a `storage_error`).
 */
export function reportError(
  command: string,
  error: unknown,
  stderr: NodeJS.WritableStream = process.stderr,
): number {
  const { code, message } = describeCliError(error);
  stderr.write(`perch ${command}: ${message} (${code})\n`);
  if (error instanceof SettingsUnreadableError) return SettingsUnreadableError.exitCode;
  return code === "cancelled" ? 130 : 1;
}

/** `describeError`, with a file-system error on a path the user named coded by what it means. */
export function describeCliError(error: unknown): { code: ErrorCode; message: string } {
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  const fileCode =
    !(error instanceof PerchError) && typeof errno === "string" ? fileErrorCodes[errno] : undefined;
  const described = describeError(error, fileCode);
  // The server's words are for any client; the CLI's own way to send the key is worth naming.
  if (described.code === "unauthorized" && !described.message.includes("PERCH_API_KEY"))
    return {
      ...described,
      message: `${described.message} The CLI sends the key in PERCH_API_KEY (else settings.json's api_key).`,
    };
  return described;
}
