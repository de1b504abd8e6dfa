import { packageRoot } from "./packageRoot.js";

/** Perch's version, read from its own package.json (the one place it is written). */
export function perchVersion(): string {
  return packageRoot()?.version ?? "0.0.0";
}
