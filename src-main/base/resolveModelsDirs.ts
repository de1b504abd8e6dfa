import path from "node:path";
import { perchPaths } from "./perchPaths.js";

/** The effective model folders: an empty list means `<basePath>/models`. */
export function resolveModelsDirs(basePath: string, modelsDirs: readonly string[]): string[] {
  return modelsDirs.length > 0
    ? modelsDirs.map((dir) => path.resolve(dir))
    : [perchPaths(basePath).defaultModels];
}
