import { packageRoot } from "../core/packageRoot.js";

/** Perch's version from its own `package.json` (see `packageRoot`), else `0.0.0`. */
export function readAppVersion(): string {
  return packageRoot()?.version ?? "0.0.0";
}
