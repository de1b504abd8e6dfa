import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findServer, lookUpServer } from "../../../src-main/cli/client/findServer.js";
import { requireServer } from "../../../src-main/cli/loadCommand.js";
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
    const client = await findServer({ basePath: baseA }, {});
    expect(client?.url).toBe(`http://127.0.0.1:${port}`);
  });

  it("does not take another base path's server on the same port for its own", async () => {
    expect(await findServer({ basePath: baseB }, {})).toBeNull();
  });

  it("trusts PERCH_HOST as given, and answers null when nothing listens", async () => {
    expect((await findServer({}, { PERCH_HOST: `127.0.0.1:${port}` }))?.url).toBe(`http://127.0.0.1:${port}`);
    expect((await findServer({}, { PERCH_HOST: `http://localhost:${port}/` }))?.url).toBe(
      `http://localhost:${port}`,
    );
    expect(await findServer({ basePath: baseA }, { PERCH_HOST: "127.0.0.1:9" })).toBeNull();
    await expect(findServer({}, { PERCH_HOST: "not a host" })).rejects.toThrow(
      /PERCH_HOST is not a host\[:port\] or URL: 'not a host'/,
    );
  });

  it("with --base-path named, PERCH_HOST's server must be that base's", async () => {
    expect(await findServer({ basePath: baseB }, { PERCH_HOST: `127.0.0.1:${port}` })).toBeNull();
    expect((await findServer({ basePath: baseA }, { PERCH_HOST: `127.0.0.1:${port}` }))?.url).toBe(
      `http://127.0.0.1:${port}`,
    );
  });

  it("finds a server on another port than the settings' through the address it recorded", async () => {
    const base = path.join(work, "recorded");
    fs.mkdirSync(base);
    fs.copyFileSync(path.join(baseA, "instance_id"), path.join(base, "instance_id"));
    // The settings name a port nobody listens on; the running server recorded its own.
    fs.writeFileSync(path.join(base, "settings.json"), JSON.stringify({ port: 9 }));
    const record = (pid: number) =>
      fs.writeFileSync(
        path.join(base, "server.json"),
        JSON.stringify({ url: `http://0.0.0.0:${port}`, pid, started_at: new Date().toISOString() }),
      );
    record(process.pid);
    expect((await findServer({ basePath: base }, {}))?.url).toBe(`http://127.0.0.1:${port}`);
    // A record whose process is gone is ignored.
    record(999_999_999);
    expect(await findServer({ basePath: base }, {})).toBeNull();
  });

  it("with --models-dir, uses the server only when it serves those folders", async () => {
    const served = path.join(baseA, "models");
    expect((await findServer({ basePath: baseA, modelsDir: [served] }, {}))?.url).toBe(
      `http://127.0.0.1:${port}`,
    );
    expect(await findServer({ basePath: baseA, modelsDir: [path.join(work, "elsewhere")] }, {})).toBeNull();
  });

  it("with --models-dir of other folders, says the base's server serves others (not that none runs)", async () => {
    const served = path.join(baseA, "models");
    const elsewhere = path.join(work, "elsewhere");
    const lookup = await lookUpServer({ basePath: baseA, modelsDir: [elsewhere] }, {});
    expect(lookup.server).toBeNull();
    expect(lookup.otherFolders).toEqual({ served: [served], asked: [elsewhere] });
    // ps, load and unload need a server: they name the one that runs and what it serves.
    await expect(
      requireServer({ basePath: baseA, modelsDir: [elsewhere] }, "loading a model", {}),
    ).rejects.toThrow(
      `The server at http://127.0.0.1:${port} serves ${served}, not ${elsewhere}; loading a model needs a server of those folders.`,
    );
    await expect(requireServer({ basePath: baseB }, "loading a model", {})).rejects.toThrow(
      `No server is running at http://127.0.0.1:${port}; loading a model needs one.`,
    );
  });

  it("sends the API key to nothing that cannot show this base path's instance id", async () => {
    // An impostor on the settings' port: answers /health like Perch and records every header.
    const seen: (string | undefined)[] = [];
    const impostor = http.createServer((request, response) => {
      seen.push(request.headers.authorization);
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify(request.url === "/health" ? { status: "ok", instance: "0".repeat(32) } : {}),
      );
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    const impostorPort = (impostor.address() as AddressInfo).port;
    const base = path.join(work, "keyed");
    fs.mkdirSync(base);
    fs.writeFileSync(
      path.join(base, "settings.json"),
      JSON.stringify({ port: impostorPort, api_key: "sk-secret" }),
    );
    fs.writeFileSync(path.join(base, "instance_id"), `${"a".repeat(32)}\n`);
    try {
      expect(await findServer({ basePath: base }, {})).toBeNull();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((header) => header === undefined)).toBe(true);
    } finally {
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it("recognises its own server by the instance id even when it wants a key", async () => {
    const keyed = await buildAdminApp(baseA, { apiKey: "sk-own" });
    await keyed.app.listen({ host: "127.0.0.1", port: 0 });
    const keyedPort = (keyed.app.server.address() as AddressInfo).port;
    const base = path.join(work, "own");
    fs.mkdirSync(base);
    fs.copyFileSync(path.join(baseA, "instance_id"), path.join(base, "instance_id"));
    fs.writeFileSync(
      path.join(base, "settings.json"),
      JSON.stringify({ port: keyedPort, api_key: "sk-own" }),
    );
    try {
      const client = await findServer({ basePath: base }, {});
      expect(client?.url).toBe(`http://127.0.0.1:${keyedPort}`);
      // The key went along once the server proved to be this base's: the keyed route answers.
      await expect(client!.request("getSettings")).resolves.toHaveProperty("effective");
    } finally {
      await keyed.app.close();
    }
  });
});
