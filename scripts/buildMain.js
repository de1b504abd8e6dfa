#!/usr/bin/env node
// Compiles the main process, the CLI and the workers to JavaScript in dist/main (what the app
// ships and what `bin/perch.js` runs), copies the non-TypeScript files they load at run time
// (the scoring sandbox's and the code analyzer's Python, the test model's training corpus), and writes the stamp that `mainBuildState()` compares against.
// `--if-stale` does nothing when the build is already up to date.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildStampPath, mainBuildState, root } from "./mainBuildState.js";

/** Files next to the sources that the compiled code reads through `import.meta.url` (readAssetText). */
const assetExtensions = new Set([".py", ".txt"]);
const outDir = path.join(root, "dist/main");

if (process.argv.includes("--if-stale") && mainBuildState() === "fresh") process.exit(0);

// A stale stamp must not survive a failed build.
fs.rmSync(buildStampPath, { force: true });
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const args = ["-p", "tsconfig.app.json", "--outDir", outDir, "--noEmit", "false", "--sourceMap", "false"];
const result = spawnSync(process.execPath, [tsc, ...args], { cwd: root, stdio: "inherit" });
if (result.status !== 0) {
  process.stderr.write(`Compiling the main process failed (exit ${result.status ?? result.signal}).\n`);
  process.exit(result.status ?? 1);
}

function copyAssets(folder) {
  for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) copyAssets(relative);
    else if (assetExtensions.has(path.extname(entry.name))) {
      fs.mkdirSync(path.dirname(path.join(outDir, relative)), { recursive: true });
      fs.copyFileSync(path.join(root, relative), path.join(outDir, relative));
    }
  }
}
copyAssets("src-main");
fs.writeFileSync(buildStampPath, `${JSON.stringify({ builtAt: new Date().toISOString() })}\n`);
