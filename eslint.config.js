// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { perchPlugin } from "./scripts/eslint/layerImports.js";
import { layers } from "./scripts/eslint/layers.js";

const nodeBuiltins = ["node:*", "fs", "path", "os", "child_process", "crypto", "http", "https", "net", "stream", "url", "util", "worker_threads", "events", "buffer", "zlib"];

/** Import boundaries (DESIGN.md "Dependency direction"): enforced per folder. */
const restrict = (/** @type {{group: string[], message: string}[]} */ patterns) => ({
  "no-restricted-imports": /** @type {import("eslint").Linter.RuleEntry} */ (["error", { patterns }]),
});
const noElectron = { group: ["electron", "electron/*"], message: "electron may only be imported under src-main/app/." };
const noRenderer = { group: ["**/src-renderer/**"], message: "src-main must not import src-renderer." };
const noMain = { group: ["**/src-main/**"], message: "src-renderer and src-shared must not import src-main." };
const noNode = { group: nodeBuiltins, message: "src-shared and src-renderer stay free of Node built-ins." };

export default tseslint.config(
  { ignores: ["node_modules/**", "dist/**", "**/*.cjs", ".tmp/**", "test-results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // CommonJS on purpose (bin/package.json): it sizes libuv's pool before anything loads.
    files: ["bin/perch.js"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The layer table: allow-lists per folder, and no source file outside a layer.
    files: ["src-main/**/*.{ts,cts}", "src-shared/**/*.ts", "src-renderer/**/*.{ts,tsx}"],
    plugins: { perch: perchPlugin },
    rules: { "perch/layer-imports": ["error", { roots: ["src-main", "src-shared", "src-renderer"], layers }] },
  },
  {
    files: ["src-shared/**/*.ts"],
    rules: restrict([noElectron, noMain, noNode, { group: ["**/src-renderer/**"], message: "src-shared imports nothing app-side." }]),
    languageOptions: { globals: {} },
  },
  {
    files: ["src-main/**/*.ts"],
    ignores: ["src-main/app/**"],
    rules: restrict([noElectron, noRenderer]),
  },
  {
    files: ["src-main/app/**/*.ts"],
    rules: restrict([noRenderer]),
  },
  {
    files: ["src-renderer/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...restrict([noElectron, noMain, noNode]),
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
);
