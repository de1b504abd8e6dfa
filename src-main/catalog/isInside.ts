import path from "node:path";

/** Whether `candidate` is strictly inside `folder` (both resolved first; no `..` escape). */
export function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(path.resolve(folder), path.resolve(candidate));
  return relative.length > 0 && !relative.startsWith("..") && !path.isAbsolute(relative);
}
