import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { PerchError } from "../base/PerchError.js";
import { errorMessage } from "../base/describeError.js";
import { perchPaths } from "../base/perchPaths.js";

const idPattern = /^[0-9a-f]{32}$/;

/** The base path's instance id, or null when no Perch has started on it (or the file is damaged). */
export function readInstanceId(basePath: string): string | null {
  try {
    const text = fs.readFileSync(perchPaths(basePath).instanceId, "utf8").trim();
    return idPattern.test(text) ? text : null;
  } catch {
    return null;
  }
}

/**
 * The random id of this base path, made on first start. The server shows it on `GET /health` and
 * the CLI compares it with the file before it sends the API key anywhere: whatever answers on the
 * port but cannot read this base path is not its server. Not a secret worth more than that: it
 * only tells a server of this base path from another process on the same port.
 */
export function ensureInstanceId(basePath: string): string {
  const existing = readInstanceId(basePath);
  if (existing) return existing;
  const file = perchPaths(basePath).instanceId;
  const fresh = randomBytes(16).toString("hex");
  try {
    fs.writeFileSync(file, `${fresh}\n`, { flag: "wx", mode: 0o600 });
    return fresh;
  } catch (error) {
    // Another process made it first: use theirs. A damaged file is replaced.
    const raced = readInstanceId(basePath);
    if (raced) return raced;
    try {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A damaged file holds nothing worth keeping (a random id): it is replaced.
      fs.writeFileSync(file, `${fresh}\n`, { mode: 0o600 });
      return fresh;
    } catch (failure) {
      throw new PerchError(
        "storage_error",
        `Could not write ${file} (${errorMessage(failure)}): Perch keeps this base folder's id there. Remove whatever is in its place.`,
        { details: { path: file } },
      );
    }
  }
}
