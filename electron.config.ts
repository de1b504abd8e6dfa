// electron-builder configuration of the menu-bar app (macOS, Apple Silicon).
// Package on a Mac: `node scripts/start.js --build-only && npx electron-builder --config electron.config.ts --mac`
// (the first compiles dist/renderer and dist/main, preload included).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Configuration } from "electron-builder";
import threadPool from "./scripts/uvThreadPoolSize.cjs";

/** Every node-llama-cpp prebuilt that is not the macOS one: never shipped in the mac app. */
export const foreignBinaries = [
  "node_modules/@node-llama-cpp/linux-*/**",
  "node_modules/@node-llama-cpp/win-*/**",
  "node_modules/@node-llama-cpp/*cuda*/**",
  "node_modules/@node-llama-cpp/*vulkan*/**",
  "node_modules/node-llama-cpp/bins/linux-*/**",
  "node_modules/node-llama-cpp/bins/win-*/**",
  "node_modules/node-llama-cpp/bins/*cuda*/**",
  "node_modules/node-llama-cpp/bins/*vulkan*/**",
];

/**
 * Dependencies used only while installing: patch-package applies `patches/` at `npm install`
 * (a dependency, so `npm ci --omit=dev` works), and the packaged app is built from an installed,
 * already-patched tree.
 */
export const installOnlyFiles = ["node_modules/patch-package/**"];

/**
 * What node-llama-cpp needs only to build llama.cpp from source, which the app never does
 * (`getLlama({ build: "never" })`): the llama.cpp sources and their git bundle, local builds,
 * the addon's C++ sources and the cmake/xpack toolchains, and the `init` command's templates.
 * Everything else in `llama/` stays: `import("node-llama-cpp")` reads
 * `llama/binariesGithubRelease.json` at load time (a top-level await), and the bindings read
 * `llama.cpp.info.json`, `package.json` and `grammars/` at run time.
 */
export const buildOnlyFiles = [
  "node_modules/node-llama-cpp/llama/llama.cpp/**",
  "node_modules/node-llama-cpp/llama/localBuilds/**",
  "node_modules/node-llama-cpp/llama/gitRelease.bundle",
  "node_modules/node-llama-cpp/llama/addon/**",
  "node_modules/node-llama-cpp/llama/cmake/**",
  "node_modules/node-llama-cpp/llama/CMakeLists.txt",
  "node_modules/node-llama-cpp/llama/toolchains/**",
  "node_modules/node-llama-cpp/llama/profiles/**",
  "node_modules/node-llama-cpp/llama/xpack/**",
  "node_modules/node-llama-cpp/llama/patches/**",
  "node_modules/node-llama-cpp/llama/.temp/**",
  "node_modules/node-llama-cpp/templates/**",
];

/**
 * The packages the scoring worker imports (its compiled closure reaches `zod` and `pino`), with
 * everything they depend on, read from the installed package.json files: the worker runs from
 * `app.asar.unpacked` (see asarUnpackedPath.ts), where Node resolves bare imports without the
 * archive. The packaging test loads the worker with only the unpacked files, so a new import
 * that is missing here fails there.
 */
export const scoringWorkerPackages = ["zod", "pino"];

/** `names` and their production dependencies, as folders under node_modules (nested ones too). */
export function packageClosure(
  names: string[],
  projectDir = path.dirname(fileURLToPath(import.meta.url)),
): string[] {
  const folders = new Set<string>();
  const visit = (name: string, from: string) => {
    // Node's lookup: the requiring package's own node_modules first, then each folder above.
    for (let dir = from; ; dir = path.dirname(dir)) {
      const folder = path.join(dir, "node_modules", name);
      if (fs.existsSync(path.join(folder, "package.json"))) {
        const relative = path.relative(projectDir, folder).split(path.sep).join("/");
        if (folders.has(relative)) return;
        folders.add(relative);
        const manifest = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8")) as {
          dependencies?: Record<string, string>;
        };
        for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, folder);
        return;
      }
      if (dir === projectDir || dir === path.dirname(dir)) throw new Error(`${name} is not installed`);
    }
  };
  for (const name of names) visit(name, projectDir);
  return [...folders].sort();
}

const config: Configuration = {
  appId: "dev.perch.app",
  productName: "Perch",
  copyright: "Copyright © Perch contributors",
  directories: { output: "dist/electron", buildResources: "assets" },
  // The compiled main process (tsc → dist/main), the built renderer and the icons; no sources.
  files: [
    "package.json",
    "dist/main/**/*",
    "dist/renderer/**/*",
    "assets/trayTemplate*.png",
    "assets/icon.png",
    "!**/*.map",
    "!**/*.{ts,tsx,md}",
    ...[...foreignBinaries, ...buildOnlyFiles, ...installOnlyFiles].map((pattern) => `!${pattern}`),
  ],
  asar: true,
  asarUnpack: [
    // Native addons and Metal kernels cannot be loaded from inside an asar archive.
    "node_modules/node-llama-cpp/bins/**",
    "node_modules/@node-llama-cpp/**",
    // The scoring worker thread and the sandbox's Python run from real files: the worker is
    // started from app.asar.unpacked, and python cannot read an archive. All of dist/main (a few
    // MB of JavaScript), so the worker's relative imports resolve however they change.
    "dist/main/**",
    ...packageClosure(scoringWorkerPackages).map((folder) => `${folder}/**`),
  ],
  npmRebuild: false,
  electronLanguages: ["en", "de", "ja"],
  mac: {
    target: [
      { target: "dmg", arch: ["arm64"] },
      { target: "zip", arch: ["arm64"] },
    ],
    category: "public.app-category.developer-tools",
    icon: "assets/icon.png",
    // Signing and notarization come from the environment, never from this file (README,
    // "Building the Mac app"): CSC_LINK + CSC_KEY_PASSWORD (or a "Developer ID Application"
    // identity in the keychain) sign; APPLE_API_KEY + APPLE_API_KEY_ID + APPLE_API_ISSUER, or
    // APPLE_ID + APPLE_APP_SPECIFIC_PASSWORD + APPLE_TEAM_ID, or APPLE_KEYCHAIN_PROFILE notarize.
    // `notarize` stays unset: electron-builder notarizes when those credentials are present and
    // skips it (with a log line) when they are not, so `npm run package:mac:unsigned` still works.
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: "assets/entitlements.mac.plist",
    entitlementsInherit: "assets/entitlements.mac.plist",
    // A menu-bar app: no Dock icon, no app menu (app.dock.hide() also runs at start).
    // LSEnvironment: the main process (which decodes) starts with libuv's pool at 2 threads, as
    // bin/perch.js sets it for `perch serve` (README: "Notes on CPUs"); Node reads it only at start.
    extendInfo: {
      LSUIElement: true,
      NSHighResolutionCapable: true,
      LSEnvironment: { UV_THREADPOOL_SIZE: threadPool.uvThreadPoolSize },
    },
    minimumSystemVersion: "13.0",
  },
  dmg: { title: "Perch ${version}" },
};

export default config;
