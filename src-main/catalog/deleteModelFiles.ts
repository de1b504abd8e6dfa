import fs from "node:fs/promises";
import path from "node:path";
import type { CatalogEntry } from "../../src-shared/contracts/catalog.js";
import { PerchError } from "../base/PerchError.js";
import { isInside } from "./isInside.js";

/**
 * Deletes a model's files, refusing (before touching anything) unless every file — after
 * following symlinked folders — lies inside the entry's models dir, which must still be one of
 * the configured ones. A Hugging Face cache link also takes its blob, unless another link in the
 * models dir still points at it (two snapshot files of one content share a blob); folders left
 * empty go too.
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
  const blobs: string[] = [];
  const leaving = new Set<string>();
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
    leaving.add(path.join(realParent, path.basename(file)));
    const stat = await fs.lstat(file).catch(() => undefined);
    if (stat?.isSymbolicLink()) {
      const target = path.resolve(path.dirname(file), await fs.readlink(file));
      const realTarget = await fs.realpath(target).catch(() => undefined);
      if (realTarget && isInside(realRoot, realTarget)) blobs.push(realTarget);
    }
  }
  if (blobs.length > 0) {
    const stillLinked = await linkTargets(realRoot, leaving);
    doomed.push(...blobs.filter((blob) => !stillLinked.has(blob)));
  }
  const deleted: string[] = [];
  for (const file of doomed) {
    await fs.rm(file, { force: true });
    deleted.push(file);
  }
  for (const file of entry.files) await removeEmptyParents(path.dirname(file), root);
  return deleted;
}

/**
 * The real targets of every symlink below `root` except `skip` (folder links are not followed,
 * as the scan does not loop through them either).
 */
async function linkTargets(root: string, skip: ReadonlySet<string>, depth = 0): Promise<Set<string>> {
  const targets = new Set<string>();
  if (depth > 16) return targets;
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const child of entries) {
    const full = path.join(root, child.name);
    if (child.isDirectory()) {
      for (const target of await linkTargets(full, skip, depth + 1)) targets.add(target);
    } else if (child.isSymbolicLink() && !skip.has(full)) {
      const real = await fs.realpath(full).catch(() => undefined);
      if (real) targets.add(real);
    }
  }
  return targets;
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
