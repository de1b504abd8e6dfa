import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createCore } from "../../../src-main/core/createCore.js";
import { startServer } from "../../../src-main/server/startServer.js";
import { SettingsUnreadableError } from "../../../src-main/settings/SettingsUnreadableError.js";
import { refusalProblem } from "../../helpers/hardeningChecks.js";
import { rawRequest } from "../../helpers/rawHttp.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const storedKey = "stored-secret-key";

/** Whether anything accepts a TCP connection on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs `perch serve` and waits for it to serve or to exit; never leaves it running. */
async function serve(basePath: string, port: number): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    ["bin/perch.js", "serve", "--base-path", basePath, "--port", String(port), "--no-starter-model"],
    { cwd: repositoryRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PERCH_API_KEY: "" } },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (!output.includes("Perch is serving at")) return;
      // It started: that is the failure under test. Say so after stopping it.
      clearInterval(timer);
      child.kill("SIGKILL");
    }, 100);
    child.once("exit", (code) => {
      clearInterval(timer);
      resolve({ code, output });
    });
  });
}

describe("an unreadable settings.json fails closed", () => {
  const folders: string[] = [];
  const tempBase = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "perch-failclosed-"));
    folders.push(folder);
    return folder;
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  it("`perch serve` on a truncated settings.json with a stored key exits 78, names the file and listens nowhere", async () => {
    const basePath = tempBase();
    const file = path.join(basePath, "settings.json");
    const whole = JSON.stringify({ api_key: storedKey, default_ttl_seconds: 60 });
    // Truncated mid-write by hand, a full disk or another tool: the key is in the lost half.
    fs.writeFileSync(file, whole.slice(0, 10));
    const port = await freePort();
    const { code, output } = await serve(basePath, port);
    expect(output).not.toContain("Perch is serving at");
    expect(code).toBe(SettingsUnreadableError.exitCode);
    expect(output).toContain(file);
    expect(output).toMatch(/will not start/);
    expect(output).not.toMatch(/\n\s+at\s/); // a message, not a stack trace
    expect(await accepts(port)).toBe(false);
    // Left in place for the user to repair: not moved aside, not replaced by defaults.
    expect(fs.readFileSync(file, "utf8")).toBe(whole.slice(0, 10));
    expect(fs.readdirSync(basePath).filter((name) => name.startsWith("settings.json"))).toEqual([
      "settings.json",
    ]);
  });

  it("every command that reads the base folder exits 78 on it too, not only serve", async () => {
    const basePath = tempBase();
    fs.writeFileSync(path.join(basePath, "settings.json"), "{bad json");
    const listed = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ["bin/perch.js", "models", "list", "--base-path", basePath], {
        cwd: repositoryRoot,
        env: { ...process.env, PERCH_HOST: "", PERCH_API_KEY: "" },
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("exit", (code) => resolve({ code, output }));
    });
    expect(listed.output).toContain(path.join(basePath, "settings.json"));
    expect(listed.code).toBe(SettingsUnreadableError.exitCode);
    // Also the commands that only look for a server (its port and key are in that file).
    for (const command of [["ps"], ["unload", "some-model"]]) {
      const looked = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ["bin/perch.js", ...command, "--base-path", basePath], {
          cwd: repositoryRoot,
          env: { ...process.env, PERCH_HOST: "", PERCH_API_KEY: "" },
        });
        let output = "";
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("exit", (code) => resolve({ code, output }));
      });
      expect(looked.code, command.join(" ")).toBe(SettingsUnreadableError.exitCode);
      expect(looked.output).toContain(path.join(basePath, "settings.json"));
    }
  });

  it("createCore refuses a settings.json that parses but does not validate", async () => {
    const basePath = tempBase();
    fs.writeFileSync(path.join(basePath, "settings.json"), JSON.stringify({ api_key: 5 }));
    const refused = await createCore({ basePath, port: 0, logLevel: "fatal" }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SettingsUnreadableError);
    expect((refused as Error).message).toContain(path.join(basePath, "settings.json"));
  });

  it("a settings.json corrupted while serving keeps the key required and is never saved over", async () => {
    const basePath = tempBase();
    const file = path.join(basePath, "settings.json");
    fs.writeFileSync(file, JSON.stringify({ api_key: storedKey }));
    const core = await createCore({ basePath, port: 0, logLevel: "fatal" });
    const { app, url } = await startServer(core);
    try {
      const withKey = { authorization: `Bearer ${storedKey}` };
      expect((await rawRequest(url, { method: "GET", path: "/v1/models" })).status).toBe(401);
      expect((await rawRequest(url, { method: "GET", path: "/admin/api/settings" })).status).toBe(401);
      // Broken by hand while serving, then a save without a reload first: refused, file kept.
      fs.writeFileSync(file, '{"api_key": 5');
      const unsaved = await rawRequest(url, {
        method: "PUT",
        path: "/admin/api/settings",
        headers: { ...withKey, "content-type": "application/json" },
        body: JSON.stringify({ default_ttl_seconds: 333 }),
      });
      expect(unsaved.status).toBe(500);
      expect(JSON.parse(unsaved.body).error.code).toBe("storage_error");
      expect(fs.readFileSync(file, "utf8")).toBe('{"api_key": 5');
      fs.writeFileSync(file, "");
      const reload = await rawRequest(url, { method: "POST", path: "/admin/api/reload", headers: withKey });
      expect(reload.status).toBeGreaterThanOrEqual(400);
      const save = await rawRequest(url, {
        method: "PUT",
        path: "/admin/api/settings",
        headers: { ...withKey, "content-type": "application/json" },
        body: JSON.stringify({ default_ttl_seconds: 30 }),
      });
      expect(save.status).toBe(500);
      expect(JSON.parse(save.body).error.code).toBe("storage_error");
      // The save did not replace the file with defaults (which would lose the key for good).
      expect(fs.readFileSync(file, "utf8")).toBe("");
      const open = await rawRequest(url, { method: "GET", path: "/v1/models" });
      expect(open.status).toBe(401);
      expect(refusalProblem(open, { codes: ["unauthorized"] })).toBeUndefined();
    } finally {
      await app.close();
      await core.close();
    }
  });
});
