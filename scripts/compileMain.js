// The steps of `scripts/buildMain.js`, with the compiler injected so a test can run them.
import fs from "node:fs";
import path from "node:path";
import { stampName } from "./mainBuildState.js";

/** Files next to the sources that the compiled code reads through `import.meta.url` (readAssetText). */
const assetExtensions = new Set([".py", ".txt"]);

function copyAssets(projectRoot, outDir, folder) {
  for (const entry of fs.readdirSync(path.join(projectRoot, folder), { withFileTypes: true })) {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) copyAssets(projectRoot, outDir, relative);
    else if (assetExtensions.has(path.extname(entry.name))) {
      fs.mkdirSync(path.dirname(path.join(outDir, relative)), { recursive: true });
      fs.copyFileSync(path.join(projectRoot, relative), path.join(outDir, relative));
    }
  }
}

/**
 * Builds `<projectRoot>/dist/main` afresh: `compile(folder)` writes into an empty sibling folder,
 * the run-time assets are copied, and the folder replaces the old build by rename, so no output
 * of a deleted source survives and a failed build leaves no fresh-looking stamp. The stamp's mtime
 * is the moment the build began reading sources: a file saved during the compile is newer, so the
 * build reads as stale and `bin/perch.js` never runs code older than the sources.
 * @param {string} projectRoot
 * @param {(outDir: string) => boolean} compile answers whether compiling succeeded
 * @returns {boolean}
 */
export function compileMain(projectRoot, compile) {
  const startedAt = new Date();
  const distDir = path.join(projectRoot, "dist");
  const outDir = path.join(distDir, "main");
  const nextDir = path.join(distDir, `main.next-${process.pid}`);
  const oldDir = path.join(distDir, `main.old-${process.pid}`);
  fs.mkdirSync(distDir, { recursive: true });
  fs.rmSync(nextDir, { recursive: true, force: true });
  // A stale stamp must not survive a failed build.
  fs.rmSync(path.join(outDir, stampName), { force: true });
  if (!compile(nextDir)) {
    fs.rmSync(nextDir, { recursive: true, force: true });
    return false;
  }
  copyAssets(projectRoot, nextDir, "src-main");
  const stamp = path.join(nextDir, stampName);
  fs.writeFileSync(stamp, `${JSON.stringify({ builtAt: new Date().toISOString(), startedAt })}\n`);
  fs.utimesSync(stamp, startedAt, startedAt);
  if (fs.existsSync(outDir)) fs.renameSync(outDir, oldDir);
  fs.renameSync(nextDir, outDir);
  fs.rmSync(oldDir, { recursive: true, force: true });
  return true;
}
