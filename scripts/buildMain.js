#!/usr/bin/env node
// Compiles the main process, the CLI and the workers to JavaScript in dist/main (what the app
// ships and what `bin/perch.js` runs), copies the non-TypeScript files they load at run time
// (the scoring sandbox's Python, text assets), and writes the stamp that `mainBuildState()`
// compares against. `--if-stale` does nothing when the build is already up to date.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { compileMain } from "./compileMain.js";
import { mainBuildState, root } from "./mainBuildState.js";

if (process.argv.includes("--if-stale") && mainBuildState() === "fresh") process.exit(0);

const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const built = compileMain(root, (outDir) => {
  const args = ["-p", "tsconfig.app.json", "--outDir", outDir, "--noEmit", "false", "--sourceMap", "false"];
  const result = spawnSync(process.execPath, [tsc, ...args], { cwd: root, stdio: "inherit" });
  if (result.status === 0) return true;
  process.stderr.write(`Compiling the main process failed (exit ${result.status ?? result.signal}).\n`);
  return false;
});
process.exit(built ? 0 : 1);
