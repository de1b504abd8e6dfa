import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { asarUnpackedPath } from "./asarUnpackedPath.js";
import { errorMessage } from "./describeError.js";
import { PerchError } from "./PerchError.js";

/**
 * A text file shipped beside the code that uses it (the sandbox's and the analyzer's Python, the
 * test model's training corpus), by its path relative to `moduleUrl` (the caller's
 * `import.meta.url`). `scripts/buildMain.js` copies these files into dist/main beside the compiled
 * modules, and electron.config.ts unpacks dist/main, so in the packaged app they are read from
 * `app.asar.unpacked`: real files, as in a checkout. A missing file is Perch's own failure
 * (`internal_error`), never the caller's input.
 */
export function readAssetText(relative: string, moduleUrl: string): string {
  const location = fileURLToPath(asarUnpackedPath(new URL(relative, moduleUrl).href));
  try {
    return fs.readFileSync(location, "utf8");
  } catch (error) {
    throw new PerchError("internal_error", `Perch's own file could not be read: ${errorMessage(error)}`);
  }
}
