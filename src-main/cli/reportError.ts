import { PerchError } from "../core/PerchError.js";

/**
 * Prints `perch <command>: <message> (<code>)` on stderr and answers the exit code: 130 for a
 * cancelled run (as after Ctrl-C), 1 otherwise. Never a stack: errors that are not ours keep
 * only their message.
 */
export function reportError(
  command: string,
  error: unknown,
  stderr: NodeJS.WritableStream = process.stderr,
): number {
  const code = error instanceof PerchError ? error.code : "internal_error";
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`perch ${command}: ${message} (${code})\n`);
  return code === "cancelled" ? 130 : 1;
}
