import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * Perch's version from the nearest `package.json` named `perch` above this file (source tree,
 * `dist/` build and the packaged app all have one), else `0.0.0`.
 */
export function readAppVersion(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "perch" && typeof pkg.version === "string") return (cached = pkg.version);
    } catch {
      // No (readable) package.json here: keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (cached = "0.0.0");
    dir = parent;
  }
}
