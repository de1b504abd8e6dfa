// electron-builder configuration of the menu-bar app (macOS, Apple Silicon).
// Package on a Mac: `node scripts/start.js --build-only && npx electron-builder --config electron.config.ts --mac`
// (the first compiles dist/renderer and dist/main, preload included).
import type { Configuration } from "electron-builder";

/** Every node-llama-cpp prebuilt that is not the macOS one: never shipped in the mac app. */
const foreignBinaries = [
  "node_modules/@node-llama-cpp/linux-*/**",
  "node_modules/@node-llama-cpp/win-*/**",
  "node_modules/@node-llama-cpp/*cuda*/**",
  "node_modules/@node-llama-cpp/*vulkan*/**",
  "node_modules/node-llama-cpp/bins/linux-*/**",
  "node_modules/node-llama-cpp/bins/win-*/**",
  "node_modules/node-llama-cpp/bins/*cuda*/**",
  "node_modules/node-llama-cpp/bins/*vulkan*/**",
  "node_modules/node-llama-cpp/llama/**",
];

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
    ...foreignBinaries.map((pattern) => `!${pattern}`),
  ],
  // Native addons and Metal kernels cannot be loaded from inside an asar archive.
  asar: true,
  asarUnpack: ["node_modules/node-llama-cpp/bins/**", "node_modules/@node-llama-cpp/**"],
  npmRebuild: false,
  electronLanguages: ["en", "de", "ja"],
  mac: {
    target: [
      { target: "dmg", arch: ["arm64"] },
      { target: "zip", arch: ["arm64"] },
    ],
    category: "public.app-category.developer-tools",
    icon: "assets/icon.png",
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: "assets/entitlements.mac.plist",
    entitlementsInherit: "assets/entitlements.mac.plist",
    // A menu-bar app: no Dock icon, no app menu (app.dock.hide() also runs at start).
    extendInfo: { LSUIElement: true, NSHighResolutionCapable: true },
    minimumSystemVersion: "13.0",
  },
  dmg: { title: "Perch ${version}" },
};

export default config;
