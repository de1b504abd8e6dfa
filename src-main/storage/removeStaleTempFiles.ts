import fs from "node:fs/promises";
import path from "node:path";

// write-file-atomic names its temp file `<target>.<number>` next to the target.
const tempName = /^(.+\.json)\.\d+$/;

/**
 * Removes temp files that a killed process left behind next to its JSON files. Only files older
 * than `olderThanMs` go: a live writer (this process or a CLI run on the same folder) holds its
 * temp file for milliseconds, so an old one can belong to no write in progress. They are never
 * read as data either way; this only keeps the folders from filling up.
 */
export async function removeStaleTempFiles(dirs: string[], olderThanMs = 10 * 60 * 1000): Promise<string[]> {
  const removed: string[] = [];
  const cutoff = Date.now() - olderThanMs;
  for (const dir of dirs) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!tempName.test(name)) continue;
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat?.isFile() || stat.mtimeMs > cutoff) continue;
      await fs.rm(file, { force: true });
      removed.push(file);
    }
  }
  return removed;
}
