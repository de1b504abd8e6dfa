import fs from "node:fs/promises";
import { createLogger } from "../base/createLogger.js";
import type { HealthRegistry } from "./HealthRegistry.js";

const log = createLogger("storage");

/**
 * Renames an unreadable file to `<name>.corrupt-<timestamp>` so the user keeps it for
 * inspection, logs it and reports it in the health warnings. Returns the new path.
 */
export async function moveAsideCorrupt(
  filePath: string,
  reason: string,
  health: HealthRegistry | undefined,
): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  let aside = `${filePath}.corrupt-${stamp}`;
  for (let attempt = 1; await exists(aside); attempt += 1) aside = `${filePath}.corrupt-${stamp}-${attempt}`;
  await fs.rename(filePath, aside);
  log.warn({ file: filePath, movedTo: aside, reason }, "corrupt file moved aside");
  health?.report({
    code: "corrupt_file",
    message: `${filePath} could not be read (${reason}); it was moved to ${aside}.`,
    path: aside,
  });
  return aside;
}

async function exists(filePath: string): Promise<boolean> {
  return fs.access(filePath).then(
    () => true,
    () => false,
  );
}
