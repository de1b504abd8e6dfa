import path from "node:path";
import { PerchError } from "../base/PerchError.js";

/**
 * `settings.json` exists but cannot be read or validated. It holds the API key and the access
 * settings, so Perch refuses to start (or to save over it) instead of carrying on with defaults
 * that would serve `/v1` and `/admin` without a key.
 */
export class SettingsUnreadableError extends PerchError {
  /** `EX_CONFIG` from sysexits.h: the command line tells a broken configuration apart from a crash. */
  static readonly exitCode = 78;
  readonly filePath: string;

  constructor(filePath: string, reason: string) {
    super("storage_error", advice(filePath, reason), { details: { path: filePath } });
    this.name = "SettingsUnreadableError";
    this.filePath = filePath;
  }
}

/** What to do: the folder is no folder, the file is not readable to this user, or it is broken. */
function advice(filePath: string, reason: string): string {
  if (reason.startsWith("ENOTDIR")) {
    return `Perch will not start: its base folder ${path.dirname(filePath)} is not a folder (${reason}). Give it a folder (--base-path DIR or PERCH_HOME).`;
  }
  if (reason.startsWith("EACCES") || reason.startsWith("EPERM")) {
    return `Perch will not start: ${filePath} cannot be read by this user (${reason}). It holds the API key and access settings: run Perch as the user who owns it, or fix its permissions.`;
  }
  return (
    `Perch will not start: ${filePath} cannot be read (${reason}). It holds the API key and access ` +
    `settings, and starting without them could leave the server open. Repair the file, or move it ` +
    `away (for example to ${filePath}.broken) to start with default settings, then set the API key again.`
  );
}
