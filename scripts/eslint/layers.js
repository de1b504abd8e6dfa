// @ts-check
/**
 * The layer table (DESIGN.md, "Dependency direction"): every source folder is one layer, and each
 * layer lists, as an allow-list, the layers its files may import (besides its own). A relative
 * import into any other layer fails lint, and so does a source file in a folder with no row here:
 * a new folder must say where it sits before it can hold code. Written after VS Code's
 * `code-import-patterns` rule. Checked by `tests/unit/lint/layerImports.test.ts`.
 *
 * Rows are folder paths relative to the repository root; the longest matching row wins.
 * Bottom to top.
 * @type {{ layer: string, allow: string[], why: string }[]}
 */
export const layers = [
  // src-shared: contracts and pure helpers shared by main and renderer; no Node, no Electron.
  { layer: "src-shared/contracts", allow: [], why: "zod schemas and the route tables; the bottom" },
  { layer: "src-shared/text", allow: [], why: "pure text helpers (reasoning split)" },
  { layer: "src-shared/i18n", allow: [], why: "strings shared by the tray and the renderer" },
  { layer: "src-shared/catalog", allow: ["src-shared/contracts"], why: "starter model list" },
  { layer: "src-shared/export", allow: ["src-shared/contracts"], why: "CSV and Markdown exports" },

  // src-main: the base library, then domains, then the composition root, then adapters.
  { layer: "src-main/base", allow: ["src-shared/contracts"], why: "errors, logger, random, paths, version" },
  { layer: "src-main/gguf", allow: ["src-main/base"], why: "GGUF writer for generated models" },
  { layer: "src-main/testModel", allow: ["src-main/base", "src-main/gguf"], why: "test-model generator" },
  {
    layer: "src-main/storage",
    allow: ["src-main/base", "src-shared/contracts"],
    why: "atomic JSON files, result stores",
  },
  {
    layer: "src-main/upstream",
    allow: ["src-main/base", "src-shared/contracts"],
    why: "clients of remote APIs",
  },
  {
    layer: "src-main/settings",
    allow: ["src-main/base", "src-main/storage", "src-shared/contracts"],
    why: "settings files and the resolved PerchConfig",
  },
  {
    layer: "src-main/engine",
    allow: ["src-main/base", "src-main/settings", "src-shared/contracts"],
    why: "node-llama-cpp: loaded models and contexts",
  },
  {
    layer: "src-main/tools",
    allow: [],
    why: "tool calling over node-llama-cpp's chat formats: neutral tools, history, forced calls, ids",
  },
  {
    layer: "src-main/scheduler",
    allow: ["src-main/base", "src-main/engine", "src-main/tools", "src-shared/contracts", "src-shared/text"],
    why: "continuous batching, speculation, sampling",
  },
  {
    layer: "src-main/chat",
    allow: [
      "src-main/base",
      "src-main/scheduler",
      "src-main/tools",
      "src-main/storage",
      "src-shared/contracts",
      "src-shared/text",
      "src-shared/export",
    ],
    why: "dashboard conversations and their replies",
  },
  {
    layer: "src-main/evals",
    allow: [
      "src-main/base",
      "src-main/scheduler",
      "src-main/settings",
      "src-main/storage",
      "src-main/upstream",
      "src-shared/contracts",
      "src-shared/text",
    ],
    why: "accuracy benchmarks, scoring sandbox, eval queue",
  },
  {
    layer: "src-main/perf",
    allow: [
      "src-main/base",
      "src-main/engine",
      "src-main/scheduler",
      "src-main/storage",
      "src-main/upstream",
      "src-shared/contracts",
    ],
    why: "performance runs and community upload",
  },
  {
    layer: "src-main/catalog",
    allow: [
      "src-main/base",
      "src-main/engine",
      "src-main/settings",
      "src-main/storage",
      "src-main/upstream",
      "src-main/testModel",
      "src-shared/contracts",
      "src-shared/catalog",
    ],
    why: "model catalog, discovery, downloads, update checks",
  },
  {
    layer: "src-main/core",
    allow: [
      "src-main/base",
      "src-main/storage",
      "src-main/upstream",
      "src-main/settings",
      "src-main/engine",
      "src-main/scheduler",
      "src-main/chat",
      "src-main/evals",
      "src-main/perf",
      "src-main/catalog",
      "src-shared/contracts",
    ],
    why: "the composition root: createCore builds every service, nothing else does",
  },
  {
    layer: "src-main/server",
    allow: [
      "src-main/base",
      "src-main/core",
      "src-main/settings",
      "src-main/storage",
      "src-main/engine",
      "src-main/scheduler",
      "src-main/tools",
      "src-main/chat",
      "src-main/evals",
      "src-main/perf",
      "src-main/catalog",
      "src-shared/contracts",
      "src-shared/export",
      "src-shared/text",
    ],
    why: "HTTP adapter over Core: OpenAI, Anthropic, admin routes",
  },
  {
    layer: "src-main/cli",
    allow: [
      "src-main/base",
      "src-main/core",
      "src-main/settings",
      // Types and pure formatting of results; services come only from Core.
      "src-main/catalog",
      "src-main/evals",
      "src-main/perf",
      "src-main/testModel",
      "src-main/server/buildServer.ts",
      "src-main/server/startServer.ts",
      "src-shared/contracts",
      "src-shared/catalog",
      "src-shared/export",
      "src-shared/text",
    ],
    why: "the perch command: uses Core (in process) or the admin API (client mode)",
  },
  {
    layer: "src-main/app",
    allow: [
      "src-main/base",
      "src-main/core",
      "src-main/settings",
      "src-main/server/buildServer.ts",
      "src-main/server/startServer.ts",
      "src-shared/contracts",
      "src-shared/i18n",
    ],
    why: "the Electron shell; the only code that imports electron",
  },

  {
    layer: "src-renderer",
    allow: [
      "src-shared/contracts",
      "src-shared/text",
      "src-shared/export",
      "src-shared/catalog",
      "src-shared/i18n",
    ],
    why: "the React dashboard",
  },
];
