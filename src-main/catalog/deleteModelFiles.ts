import fs from "node:fs/promises";
import path from "node:path";
import type { CatalogEntry } from "../../src-shared/contracts/catalog.js";
import { PerchError } from "../base/PerchError.js";
import { isInside } from "./isInside.js";

/**
 * Deletes a model's files, refusing (before touching anything) unless every file — after
 * following symlinked folders — lies inside the entry's models dir, which must still be one of
 * the configured ones. A Hugging Face cache link also takes its blob; folders left empty go too.
 */
export async function deleteModelFiles(
  entry: CatalogEntry,
  modelsDirs: readonly string[],
): Promise<string[]> {
  const root = path.resolve(entry.models_dir);
  if (!modelsDirs.some((dir) => path.resolve(dir) === root)) {
    throw new PerchError("forbidden", `'${entry.id}' is not in a configured models dir; not deleting it.`);
  }
  const realRoot = await fs.realpath(root);
  const doomed: string[] = [];
  for (const file of entry.files) {
    const realParent = await fs.realpath(path.dirname(file)).catch(() => undefined);
    if (
      !isInside(root, file) ||
      !realParent ||
      !isInside(realRoot, path.join(realParent, path.basename(file)))
    ) {
      throw new PerchError("forbidden", `Refusing to delete ${file}: it is outside ${root}.`);
    }
    doomed.push(file);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (stat?.isSymbolicLink()) {
      const target = path.resolve(path.dirname(file), await fs.readlink(file));
      const realTarget = await fs.realpath(target).catch(() => undefined);
      if (realTarget && isInside(realRoot, realTarget)) doomed.push(realTarget);
    }
  }
  const deleted: string[] = [];
  for (const file of doomed) {
    await fs.rm(file, { force: true });
    deleted.push(file);
  }
  for (const file of entry.files) await removeEmptyParents(path.dirname(file), root);
  return deleted;
}

async function removeEmptyParents(folder: string, root: string): Promise<void> {
  let current = folder;
  while (isInside(root, current)) {
    const entries = await fs.readdir(current).catch(() => ["?"]);
    if (entries.length > 0) return;
    await fs.rmdir(current).catch(() => undefined);
    current = path.dirname(current);
  }
}
