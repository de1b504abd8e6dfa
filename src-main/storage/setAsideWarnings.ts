import fs from "node:fs/promises";
import path from "node:path";
import type { HealthWarningInput } from "./HealthRegistry.js";

const asidePattern = /^(.+)\.corrupt-(\d{4}-\d{2}-\d{2}T[\d-]+Z)(?:-\d+)?$/;

/**
 * The health warnings of files moved aside as corrupt (`<name>.corrupt-<timestamp>`) in `dirs`,
 * by whichever process found them (a CLI command, an earlier run): they stay reported until the
 * user deletes them, so a damaged catalog found by `perch models list` still shows on the server.
 */
export async function setAsideWarnings(dirs: readonly string[]): Promise<HealthWarningInput[]> {
  const warnings: HealthWarningInput[] = [];
  for (const dir of dirs) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const match = asidePattern.exec(name);
      if (!match) continue;
      const aside = path.join(dir, name);
      const when = match[2]!.replace(/T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, "T$1:$2:$3.$4Z");
      warnings.push({
        code: "corrupt_file",
        message: `${path.join(dir, match[1]!)} could not be read on ${when} and was moved to ${aside}; Perch no longer uses it. Delete it once you have looked at it to clear this warning.`,
        path: aside,
      });
    }
  }
  return warnings;
}
