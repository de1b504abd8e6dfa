import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes, apiStreams } from "../../../src-shared/contracts/api.js";
import { anthropicRoutes } from "../../../src-shared/contracts/anthropic.js";
import { embeddingRoutes } from "../../../src-shared/contracts/embeddings.js";
import { openAiRoutes } from "../../../src-shared/contracts/openai.js";
import { responseRoutes } from "../../../src-shared/contracts/openaiResponses.js";
import { createCore, type Core } from "../../../src-main/core/createCore.js";
import { buildServer } from "../../../src-main/server/buildServer.js";
import { createServer } from "../../../src-main/server/createServer.js";
import { serveRoute } from "../../../src-main/server/serveRoute.js";

/*
 * The admin API's route table (`apiRoutes`, `apiStreams`) is what the renderer's client and the
 * CLI call: the server built over a real core (no model loaded) must serve exactly that table.
 */
describe("the admin route table and the server", () => {
  let basePath: string;
  let core: Core;
  let app: FastifyInstance;
  const served = new Set<string>();

  beforeAll(async () => {
    basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-route-table-"));
    core = await createCore({ basePath, logLevel: "silent" });
    app = await buildServer(core, {
      validateResponses: true,
      onRoute: ({ method, url }) => {
        for (const one of [method].flat()) if (one !== "HEAD") served.add(`${one} ${url}`);
      },
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await core?.close();
    fs.rmSync(basePath, { recursive: true, force: true });
  });

  it("serves every route and stream of the table at its method and path", () => {
    const table = [
      ...Object.values(apiRoutes).map((spec) => `${spec.method} ${spec.path}`),
      ...Object.values(apiStreams).map((spec) => `GET ${spec.path}`),
    ];
    expect(table.filter((route) => !served.has(route))).toEqual([]);
  });

  it("serves no admin route that the table does not list", () => {
    const table = new Set([
      ...Object.values(apiRoutes).map((spec) => `${spec.method} ${spec.path}`),
      ...Object.values(apiStreams).map((spec) => `GET ${spec.path}`),
    ]);
    const admin = [...served].filter((route) => route.split(" ")[1].startsWith("/admin/api"));
    expect(admin.length).toBeGreaterThan(40);
    expect(admin.filter((route) => !table.has(route))).toEqual([]);
  });

  it("serves the inference routes exactly as their tables in the contracts list them", () => {
    const table = [
      ...Object.values(openAiRoutes),
      ...Object.values(embeddingRoutes),
      ...Object.values(anthropicRoutes),
      ...Object.values(responseRoutes),
    ].map((spec) => `${spec.method} ${spec.path}`);
    const inference = [...served].filter((route) => route.split(" ")[1].startsWith("/v1/"));
    expect(inference.sort()).toEqual(table.sort());
  });

  it("answers what the table's response schemas describe", async () => {
    for (const name of ["listModels", "health", "stats", "getSettings", "listConversations"] as const) {
      const response = await app.inject({ method: "GET", url: apiRoutes[name].path });
      expect(response.statusCode, name).toBe(200);
      expect(apiRoutes[name].response.safeParse(response.json()).success, name).toBe(true);
    }
  });

  it("refuses an answer that does not match its response schema where responses are validated", async () => {
    const strict = await createServer({
      allowRemoteAdmin: false,
      validateResponses: true,
      register: (server) =>
        serveRoute(server, "health", () => ({ status: "fine" }) as unknown as { status: "ok"; warnings: [] }),
    });
    const response = await strict.inject({ method: "GET", url: "/admin/api/health" });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe("internal_error");
    await strict.close();
  });
});
