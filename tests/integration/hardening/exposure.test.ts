import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelCatalog } from "../../../src-main/catalog/ModelCatalog.js";
import { DownloadManager } from "../../../src-main/catalog/downloads/DownloadManager.js";
import type { ModelDownloader } from "../../../src-main/catalog/downloads/ModelDownloader.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { ModelSettingsStore } from "../../../src-main/settings/ModelSettingsStore.js";
import { refusalProblem } from "../../helpers/hardeningChecks.js";
import { rawRequest, type RawRequest } from "../../helpers/rawHttp.js";
import { startTestServer } from "../../helpers/startTestServer.js";
import { tinyGgufBytes } from "../../helpers/writeTinyGguf.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const apiKey = "hardening-key";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a TCP connection to host:port is accepted (false: refused or unreachable). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Local addresses listening on `port`, from /proc/net/tcp{,6} (Linux), as hex as the kernel writes them. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) =>
    fs.existsSync(file)
      ? fs
          .readFileSync(file, "utf8")
          .split("\n")
          .slice(1)
          .map((line) => line.trim().split(/\s+/))
          .filter((fields) => fields[3] === "0A" && fields[1]?.endsWith(`:${hexPort}`))
          .map((fields) => fields[1]!.split(":")[0]!)
      : [],
  );
}

const externalAddresses = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .filter((info) => info && !info.internal && info.family === "IPv4")
    .map((info) => info!.address);

describe("exposure of a real `perch serve`", () => {
  let child: ChildProcess;
  let port: number;
  let url: string;
  let basePath: string;

  beforeAll(async () => {
    basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-exposure-"));
    port = await freePort();
    // No --host: the default bind is what is under test.
    child = spawn(
      process.execPath,
      [
        "bin/perch.js",
        "serve",
        "--base-path",
        basePath,
        "--port",
        String(port),
        "--api-key",
        apiKey,
        "--no-starter-model",
        "--log-level",
        "error",
      ],
      { cwd: repositoryRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Perch is serving at")) resolve();
      });
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("exit", (code) => reject(new Error(`perch serve exited (${code}): ${output}`)));
    });
    url = `http://127.0.0.1:${port}`;
    expect(output).toContain(`Perch is serving at ${url}`);
    expect(output).not.toContain(apiKey);
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (basePath) fs.rmSync(basePath, { recursive: true, force: true });
  });

  it("binds 127.0.0.1 by default: nothing listens on other addresses", async () => {
    expect(await accepts("127.0.0.1", port)).toBe(true);
    for (const address of externalAddresses()) expect(await accepts(address, port), address).toBe(false);
    const listening = listeningAddresses(port);
    if (fs.existsSync("/proc/net/tcp")) expect(listening).toEqual(["0100007F"]);
  });

  const send = (request: Partial<RawRequest> & { path: string }, withKey = true) =>
    rawRequest(url, {
      method: "GET",
      ...request,
      headers: { ...(withKey ? { authorization: `Bearer ${apiKey}` } : {}), ...request.headers },
    });

  it("percent-encoded paths reach no route past the API key", async () => {
    for (const path of ["/%61dmin/api/settings", "/admin/%61pi/settings", "/%76%31/models", "/v%31/models"]) {
      const refused = await send({ path }, false);
      expect(refused.status, path).toBe(401);
      expect(refusalProblem(refused, { codes: ["unauthorized"] }), path).toBeUndefined();
      expect((await send({ path })).status, path).toBe(200);
    }
  });

  it("refuses admin requests addressed to a foreign host name (DNS rebinding); /v1 stays open by design", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${port}`,
      "localhost.evil.example",
      "127.0.0.1.nip.io",
      // What a URL parser reads as loopback (user info, backslash, escapes, a path).
      `evil.com@localhost:${port}`,
      "localhost\\@evil.com",
      "%6c%6f%63%61%6c%68%6f%73%74",
      `127.0.0.1:${port}/evil`,
    ]) {
      const refused = await send({ path: "/admin/api/settings", headers: { host } });
      expect(refused.status, host).toBe(403);
      expect(refusalProblem(refused, { codes: ["forbidden"] }), host).toBeUndefined();
      expect((await send({ path: "/v1/models", headers: { host } })).status, host).toBe(200);
    }
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      "localhost",
      "127.0.0.2",
      `[::1]:${port}`,
    ]) {
      expect((await send({ path: "/admin/api/settings", headers: { host } })).status, host).toBe(200);
    }
  });

  it("refuses cross-origin browser requests to admin routes, and admin writes whose body is a form", async () => {
    for (const origin of ["https://evil.example", "null", `http://localhost:${port + 1}`, "file://"]) {
      for (const [method, path] of [
        ["GET", "/admin/api/settings"],
        ["POST", "/admin/api/rescan"],
      ]) {
        const refused = await send({ method, path, headers: { origin } });
        expect(refused.status, `${origin} ${method} ${path}`).toBe(403);
        expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
      }
    }
    // A cross-site GET without Origin (no-cors fetch, <img>) still says where it came from.
    const noOrigin = await send({ path: "/admin/api/settings", headers: { "sec-fetch-site": "cross-site" } });
    expect(noOrigin.status).toBe(403);
    expect(refusalProblem(noOrigin, { codes: ["forbidden"] })).toBeUndefined();
    // The dashboard this server serves is its own origin.
    expect((await send({ path: "/admin/api/settings", headers: { origin: url } })).status).toBe(200);
    const sameOriginPost = await send({
      method: "POST",
      path: "/admin/api/rescan",
      headers: { origin: url },
    });
    expect(sameOriginPost.status).toBe(200);

    // What an HTML form can send without a preflight: urlencoded, multipart, text/plain.
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      for (const [method, path] of [
        ["POST", "/admin/api/rescan"],
        ["PUT", "/admin/api/settings"],
        ["POST", "/admin/api/bench/results/reset"],
      ]) {
        const body = type === "text/plain" ? '{"default_ttl_seconds": 1}' : "a=b";
        const refused = await send({ method, path, headers: { "content-type": type }, body });
        expect(refused.status, `${type} ${method} ${path}`).toBe(415);
        expect(refusalProblem(refused, { codes: ["unsupported_media_type"] })).toBeUndefined();
      }
    }
    const settings = JSON.parse((await send({ path: "/admin/api/settings" })).body);
    expect(settings.settings.default_ttl_seconds).not.toBe(1);
    // curl -X POST without a body, and JSON, still work.
    expect((await send({ method: "POST", path: "/admin/api/rescan" })).status).toBe(200);
    const json = await send({
      method: "PUT",
      path: "/admin/api/settings",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: '{"default_ttl_seconds": 5}',
    });
    expect(json.status).toBe(200);
  });
  it("says a key is set when it came from --api-key, without sending it back", async () => {
    const answer = await send({ path: "/admin/api/settings" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).settings.api_key_set).toBe(true);
    expect(answer.body).not.toContain(apiKey);
  });

  it("keeps the stored API key owner-only on disk and never sends it back", async () => {
    const put = await send({
      method: "PUT",
      path: "/admin/api/settings",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: "stored-secret" }),
    });
    expect(put.status).toBe(200);
    expect(put.body).not.toContain("stored-secret");
    expect((await send({ path: "/admin/api/settings" })).body).not.toContain("stored-secret");
    const file = path.join(basePath, "settings.json");
    expect(fs.readFileSync(file, "utf8")).toContain("stored-secret");
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });
});

describe("exposure on a non-loopback bind", () => {
  it("answers /v1 but refuses admin routes to a client on another address", async () => {
    const external = externalAddresses()[0];
    if (!external) return; // no non-loopback interface to come from on this machine
    const server = await startTestServer({ host: "0.0.0.0" });
    try {
      const port = new URL(server.url).port;
      const remote = `http://${external}:${port}`;
      const admin = await rawRequest(remote, { method: "GET", path: "/admin/api/settings" });
      expect(admin.status).toBe(403);
      expect(refusalProblem(admin, { codes: ["forbidden"] })).toBeUndefined();
      expect((await rawRequest(remote, { method: "GET", path: "/v1/models" })).status).toBe(200);
      expect(
        (
          await rawRequest(server.url.replace("0.0.0.0", "127.0.0.1"), {
            method: "GET",
            path: "/admin/api/settings",
          })
        ).status,
      ).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("file confinement", () => {
  it("a hub listing that names files outside the repo never makes a download leave the models dir", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-confine-"));
    try {
      const modelsDir = path.join(base, "models");
      const catalog = new ModelCatalog({
        basePath: base,
        modelsDirs: () => [modelsDir],
        settings: new ModelSettingsStore({ basePath: base }),
      });
      const opened: string[] = [];
      const lyingPaths = [
        "../../../evil-Q4_K_M.gguf",
        "/tmp/evil-Q4_K_M.gguf",
        "sub/../../../evil-Q4_K_M.gguf",
        "..\\..\\evil-Q4_K_M.gguf",
        "ok/./../../../evil-Q4_K_M.gguf",
        "evil\u0000-Q4_K_M.gguf",
      ];
      let listed = "";
      const liar: ModelDownloader = {
        source: "hf",
        listFiles: async (repo) => ({
          repo,
          revision: "a".repeat(40),
          files: [{ path: listed, size: 10, sha256: null, revision: null }],
        }),
        openFile: async (request) => {
          opened.push(request.path);
          throw new Error("never reached");
        },
      };
      const downloads = new DownloadManager({
        catalog,
        downloaders: { hf: liar, modelscope: liar },
        targetDir: () => modelsDir,
      });
      for (const lie of lyingPaths) {
        listed = lie;
        const refused = await downloads
          .start({ source: "hf", repo: "acme/evil-GGUF", quant: "Q4_K_M" })
          .catch((error: unknown) => error);
        expect(refused, lie).toBeInstanceOf(PerchError);
        expect((refused as PerchError).status, lie).toBeLessThan(500);
      }
      expect(opened).toEqual([]);
      expect(fs.existsSync(path.join(base, "evil-Q4_K_M.gguf"))).toBe(false);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it("deleting a model through the API never deletes outside its models dir (symlinked file or folder)", async () => {
    const server = await startTestServer();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "perch-outside-"));
    try {
      const victim = path.join(outside, "victim.gguf");
      fs.writeFileSync(victim, tinyGgufBytes({ name: "victim" }));
      const modelsDir = path.join(server.basePath, "models");
      fs.symlinkSync(victim, path.join(modelsDir, "linked.gguf"));
      fs.symlinkSync(outside, path.join(modelsDir, "linked-folder"));
      const rescan = await rawRequest(server.url, { method: "POST", path: "/admin/api/rescan" });
      expect(rescan.status).toBe(200);

      const viaFolder = await rawRequest(server.url, {
        method: "DELETE",
        path: `/admin/api/models/${encodeURIComponent("linked-folder/victim")}`,
      });
      expect(viaFolder.status).toBe(403);
      expect(refusalProblem(viaFolder, { codes: ["forbidden"] })).toBeUndefined();

      const viaLink = await rawRequest(server.url, { method: "DELETE", path: "/admin/api/models/linked" });
      expect(viaLink.status).toBe(200);
      expect(fs.existsSync(path.join(modelsDir, "linked.gguf"))).toBe(false);
      expect(fs.existsSync(victim)).toBe(true);
    } finally {
      await server.close();
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
