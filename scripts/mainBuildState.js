// Whether dist/main (the compiled main process, CLI and workers) is up to date with the sources.
// Cheap on purpose, `perch --version` runs it: one stat per source file, no hashing, no tsc.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The stamp inside a build folder. Its mtime is when the build *started* reading the sources. */
export const stampName = "build-stamp.json";
export const buildStampPath = path.join(root, "dist/main", stampName);
/** What the build reads: a newer file than the stamp means the build is stale. */
const sourceRoots = ["src-main", "src-shared", "tsconfig.app.json", "tsconfig.base.json", "package.json"];

function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted or renamed file changes its folder's mtime
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/**
 * `"fresh"`: the build exists and no source is newer than the moment it started; `"stale"`:
 * sources changed since (including while it compiled); `"missing"`: never built. An installed
 * copy without sources counts as fresh.
 */
export function mainBuildState(projectRoot = root) {
  let stamp;
  try {
    stamp = fs.statSync(path.join(projectRoot, "dist/main", stampName)).mtimeMs;
  } catch {
    return "missing";
  }
  if (!fs.existsSync(path.join(projectRoot, "src-main"))) return "fresh";
  const newest = Math.max(...sourceRoots.map((entry) => newestMtime(path.join(projectRoot, entry))));
  return newest <= stamp ? "fresh" : "stale";
}
