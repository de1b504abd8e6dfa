import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import OpenAI from "openai";
import { afterAll, beforeAll } from "vitest";
import { createCore, type Core } from "../../src-main/core/createCore.js";
import type { PerchConfig } from "../../src-main/settings/PerchConfig.js";
import { startServer } from "../../src-main/server/startServer.js";
import { ensureTestModels } from "./testModels.js";

export interface TestServer {
  core: Core;
  app: FastifyInstance;
  url: string;
  basePath: string;
  mainModelId: string;
  draftModelId: string;
  /** `PUT /admin/api/models/{id}/settings` (the main model by default); throws unless it answers 200. */
  putModelSettings: (settings: Record<string, unknown>, modelId?: string) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A real core + HTTP server on a free loopback port, with the generated test models linked into
 * a fresh temp base folder. Every integration test that talks HTTP starts from here.
 */
export async function startTestServer(
  config: Partial<PerchConfig> = {},
  /** More model files linked into the models folder (e.g. `ensureFimTestModel()`). */
  extraModelFiles: string[] = [],
): Promise<TestServer> {
  const models = await ensureTestModels();
  const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-test-"));
  const modelsDir = path.join(basePath, "models");
  fs.mkdirSync(modelsDir, { recursive: true });
  for (const file of [models.main, models.draft, ...extraModelFiles])
    fs.symlinkSync(file, path.join(modelsDir, path.basename(file)));
  // One llama.cpp thread unless a test asks: vitest runs other test files beside this one.
  const core = await createCore({ basePath, port: 0, logLevel: "warn", threads: 1, ...config });
  // Every admin answer is checked against the route table's response schema (a mismatch is a 500).
  const { app, url } = await startServer(core, { validateResponses: true });
  const idOf = (file: string) => path.basename(file).replace(/\.gguf$/, "");
  const mainModelId = idOf(models.main);
  return {
    core,
    app,
    url,
    basePath,
    mainModelId,
    draftModelId: idOf(models.draft),
    putModelSettings: async (settings, modelId = mainModelId) => {
      const response = await fetch(`${url}/admin/api/models/${encodeURIComponent(modelId)}/settings`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(settings),
      });
      if (response.status !== 200)
        throw new Error(`PUT settings of ${modelId} answered ${response.status}: ${await response.text()}`);
    },
    close: async () => {
      await app.close();
      await core.close();
      fs.rmSync(basePath, { recursive: true, force: true });
    },
  };
}

/** What `useOpenAiTestServer` hands a test file: read its fields inside tests and hooks. */
export interface OpenAiTestServer {
  server: TestServer;
  /** The official `openai` client on the server's `/v1`, without retries. */
  openai: OpenAI;
}

/**
 * Starts a test server before the file's tests (closed after them) with an `openai` client on it:
 * the set-up most HTTP integration files share.
 */
export function useOpenAiTestServer(config: Partial<PerchConfig> = {}): OpenAiTestServer {
  const handle = {} as OpenAiTestServer;
  beforeAll(async () => {
    handle.server = await startTestServer(config);
    handle.openai = new OpenAI({ baseURL: `${handle.server.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
  });
  afterAll(async () => {
    await handle.server?.close();
  });
  return handle;
}
