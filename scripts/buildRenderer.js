#!/usr/bin/env node
// Runs on `npm install` / `npm ci` (postinstall): builds the web dashboard into dist/renderer, so
// `perch serve` serves it right away. Never fails the install: without the dev dependencies
// (`--omit=dev`) or when the build breaks, `perch serve` answers `/` with a page saying how to
// build it (`npm run build:renderer`). Set PERCH_SKIP_RENDERER_BUILD=1 to skip.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

if (process.env.PERCH_SKIP_RENDERER_BUILD === "1") process.exit(0);
let viteBin;
try {
  viteBin = path.join(path.dirname(require.resolve("vite/package.json")), "bin/vite.js");
} catch {
  console.warn("perch: vite is not installed (dev dependencies omitted); the dashboard is not built.");
  process.exit(0);
}
const result = spawnSync(
  process.execPath,
  [viteBin, "build", "--config", "vite.config.ts", "--logLevel", "warn"],
  {
    cwd: root,
    stdio: "inherit",
  },
);
if (result.status !== 0) {
  console.warn(
    "perch: building the dashboard failed; `perch serve` will say how to build it (npm run build:renderer).",
  );
}
