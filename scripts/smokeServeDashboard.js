#!/usr/bin/env node
// CI, right after `npm ci` and before anything else builds: `perch serve` must serve the built
// dashboard at `/` (the postinstall step builds it), never a JSON 404 or the "not built" page.
// This is the README's promise for a fresh clone: `npm ci && npx perch serve`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-smoke-"));

const port = await new Promise((resolve, reject) => {
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
  probe.on("error", reject);
});

const server = spawn(
  process.execPath,
  [path.join(root, "bin/perch.js"), "serve", "--port", String(port), "--base-path", base],
  { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, PERCH_LOG_LEVEL: "error" } },
);

async function fetchRoot() {
  const deadline = Date.now() + 120_000;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`perch serve exited with ${server.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      return {
        status: response.status,
        type: response.headers.get("content-type") ?? "",
        body: await response.text(),
      };
    } catch (error) {
      last = String(error);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`perch serve did not answer on port ${port}: ${last}`);
}

let failure;
try {
  const { status, type, body } = await fetchRoot();
  const built = status === 200 && type.includes("text/html") && /<script[^>]+src="[^"]*assets\//.test(body);
  if (!built) failure = `GET / answered ${status} ${type}: ${body.slice(0, 200)}`;
} catch (error) {
  failure = String(error);
} finally {
  server.kill("SIGTERM");
  fs.rmSync(base, { recursive: true, force: true });
}
if (failure) {
  console.error(`smoke: npm ci && perch serve does not serve the dashboard: ${failure}`);
  process.exit(1);
}
console.log("smoke: after npm ci, perch serve serves the built dashboard at /");
