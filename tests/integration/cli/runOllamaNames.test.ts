import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import { runPerch } from "../../helpers/runPerch.js";
import { ensureTestModels } from "../../helpers/testModels.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

/** A Hub download, named as /api/tags lists it (`hf.co/owner/repo:QUANT`) and as it was pulled. */
let server: TestServer;
let hub: FakeHub;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startTestServer();
  hub = await startFakeHub();
  const remote = path.join(server.basePath, "remote");
  fs.mkdirSync(remote, { recursive: true });
  fs.copyFileSync((await ensureTestModels()).main, path.join(remote, "tiny-Q8_0.gguf"));
  hub.addRepo({ id: "acme/tiny-GGUF", dir: remote });
  const settings = await fetch(`${server.url}/admin/api/settings`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ hf_endpoint: hub.url }),
  });
  expect(settings.status).toBe(200);
  const pulled = await fetch(`${server.url}/api/pull`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "hf.co/acme/tiny-GGUF:Q8_0", stream: false }),
  });
  expect(await pulled.json()).toEqual({ status: "success" });
  env = { PERCH_HOST: server.url, PERCH_HOME: server.basePath, PERCH_LOG_LEVEL: "warn" };
});
afterAll(async () => {
  await server?.close();
  await hub?.close();
});

describe("perch run, load and unload take the Ollama names", () => {
  it.each(["hf.co/acme/tiny-GGUF:Q8_0", "acme/tiny-GGUF:Q8_0"])("%s", async (name) => {
    const ran = await runPerch(["run", name, "hi"], env);
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim().length).toBeGreaterThan(0);
    const loaded = await runPerch(["load", name], env);
    expect(loaded.stdout).toMatch(/^Loaded acme\/tiny-GGUF\//);
    const unloaded = await runPerch(["unload", name], env);
    expect(unloaded.stdout).toMatch(/^Unloaded acme\/tiny-GGUF\//);
  });
});
