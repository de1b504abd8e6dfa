import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findServer } from "../../../src-main/cli/client/findServer.js";
import { buildAdminApp } from "../catalog/buildAdminApp.js";

/** The admin routes on a real port for base A; the CLI looks from base A and from base B. */
const work = fs.mkdtempSync(path.join(os.tmpdir(), "perch-find-server-"));
const baseA = path.join(work, "a");
const baseB = path.join(work, "b");
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  for (const base of [baseA, baseB]) fs.mkdirSync(base);
  app = (await buildAdminApp(baseA)).app;
  await app.listen({ host: "127.0.0.1", port: 0 });
  port = (app.server.address() as AddressInfo).port;
  for (const base of [baseA, baseB]) {
    fs.writeFileSync(path.join(base, "settings.json"), JSON.stringify({ port }));
  }
});
afterAll(async () => {
  await app.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("finding the running server", () => {
  it("uses the server at the settings' port when it serves this base path's models", async () => {
    const client = await findServer(baseA, {});
    expect(client?.url).toBe(`http://127.0.0.1:${port}`);
  });

  it("does not take another base path's server on the same port for its own", async () => {
    expect(await findServer(baseB, {})).toBeNull();
  });

  it("trusts PERCH_HOST as given, and answers null when nothing listens", async () => {
    expect((await findServer(baseB, { PERCH_HOST: `127.0.0.1:${port}` }))?.url).toBe(
      `http://127.0.0.1:${port}`,
    );
    expect((await findServer(baseB, { PERCH_HOST: `http://localhost:${port}/` }))?.url).toBe(
      `http://localhost:${port}`,
    );
    expect(await findServer(baseA, { PERCH_HOST: "127.0.0.1:9" })).toBeNull();
  });
});
