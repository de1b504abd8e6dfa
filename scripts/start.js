#!/usr/bin/env node
// `npm start`: build the renderer and the main process, then launch the menu-bar app in Electron.
// `node scripts/start.js --build-only` (`npm run build`) only builds: what electron-builder
// packages, and the compiled CLI that bin/perch.js runs.
// Where Electron's binary is missing (it is downloaded on install, and only on desktop machines),
// say so and point at the headless server, which serves the same dashboard in a browser.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import threadPool from "./uvThreadPoolSize.cjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

function electronBinary() {
  const packageDir = path.join(root, "node_modules/electron");
  const pathFile = path.join(packageDir, "path.txt");
  if (fs.existsSync(pathFile)) {
    const binary = path.join(packageDir, "dist", fs.readFileSync(pathFile, "utf8").trim());
    if (fs.existsSync(binary)) return binary;
  }
  // The electron package downloads a missing binary when asked for its path; only worth trying
  // where the app can run (a Mac), not on a headless Linux box.
  if (process.platform !== "darwin") return null;
  try {
    const binary = require("electron");
    return typeof binary === "string" && fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

function run(label, command, args) {
  process.stdout.write(`\n▸ ${label}\n`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  if (result.status !== 0) {
    process.stderr.write(`\n${label} failed (exit ${result.status ?? result.signal}).\n`);
    process.exit(result.status ?? 1);
  }
}

const buildOnly = process.argv.includes("--build-only");
const binary = buildOnly ? null : electronBinary();
if (!buildOnly && !binary) {
  process.stderr.write(
    [
      "",
      "Electron's binary is not installed on this machine, so the menu-bar app cannot start here.",
      "(It is downloaded by `npm install` on macOS; CI and servers usually skip it.)",
      "",
      "Run the headless server instead — it serves the same dashboard in your browser:",
      "",
      "    npm run serve        # then open http://127.0.0.1:11435/",
      "",
      "On a Mac, fetch Electron with `npx install-electron --no` (or `rm -rf node_modules/electron && npm install`).",
      "",
    ].join("\n"),
  );
  process.exit(1);
}

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
run("Building the dashboard (vite)", npx, ["vite", "build", "--config", "vite.config.ts"]);
// tsc → dist/main (main process, CLI, workers), assets copied, stamp written: what the app ships
// and what bin/perch.js runs once it is up to date.
run("Compiling the main process (tsc)", process.execPath, [path.join(root, "scripts/buildMain.js")]);

if (buildOnly) process.exit(0);
process.stdout.write("\n▸ Starting Perch (look for the bird in the menu bar)\n");
// libuv's pool runs node-llama-cpp's decodes (scripts/uvThreadPoolSize.cjs). Node reads its size
// once at process start, so it is set here.
const child = spawn(binary, ["."], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE || threadPool.uvThreadPoolSize },
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
