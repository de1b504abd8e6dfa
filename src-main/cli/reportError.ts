import { describeError } from "../base/describeError.js";

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
  const { code, message } = describeError(error);
  stderr.write(`perch ${command}: ${message} (${code})\n`);
  return code === "cancelled" ? 130 : 1;
}
