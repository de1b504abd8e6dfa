import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let cached: { dir: string; version: string } | null | undefined;

/**
 * Perch's own folder and version: the nearest `package.json` named `perch` above this file. The
 * source tree, the compiled `dist/main` build and the packaged app all have one, at different
 * depths, so a fixed `../..` from a module is wrong in one of them. Null when none is found.
 */
export function packageRoot(): { dir: string; version: string } | null {
  if (cached !== undefined) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "perch" && typeof pkg.version === "string")
        return (cached = { dir, version: pkg.version });
    } catch {
      // No (readable) package.json here: keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (cached = null);
    dir = parent;
  }
}
