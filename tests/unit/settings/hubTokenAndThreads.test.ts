import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globalSettingsResponseSchema } from "../../../src-shared/contracts/settings.js";
import { settingsToConfig } from "../../../src-main/core/settingsToConfig.js";
import { resolveConfig } from "../../../src-main/settings/PerchConfig.js";
import { buildAdminApp } from "../catalog/buildAdminApp.js";

let base: string;
let hub: http.Server;
let hubUrl: string;
/** The Authorization header of each request the Hub stand-in saw. */
let seen: (string | undefined)[];

beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-hub-token-"));
  seen = [];
  // A Hub that refuses everything, but records who asked: enough to see which token travels.
  hub = http.createServer((request, response) => {
    seen.push(request.headers.authorization);
    response.writeHead(401, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "Invalid credentials" }));
  });
  await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve));
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => hub.close(resolve));
  await fs.rm(base, { recursive: true, force: true });
});

const readSettings = async (app: Awaited<ReturnType<typeof buildAdminApp>>["app"]) =>
  globalSettingsResponseSchema.parse(
    (await app.inject({ method: "GET", url: "/admin/api/settings" })).json(),
  );

describe("Hugging Face token in the settings", () => {
  it("is stored, never echoed, sent to the Hub at once, and can be cleared back to $HF_TOKEN", async () => {
    const { app } = await buildAdminApp(base, { env: { HF_TOKEN: "hf_from_env" } });
    await app.inject({ method: "PUT", url: "/admin/api/settings", payload: { hf_endpoint: hubUrl } });
    expect((await readSettings(app)).effective.hf_token_source).toBe("environment");
    const browse = () =>
      app.inject({ method: "GET", url: "/admin/api/downloads/repo-files?source=hf&repo=o/r" });
    await browse();
    expect(seen.at(-1)).toBe("Bearer hf_from_env");

    const put = await app.inject({
      method: "PUT",
      url: "/admin/api/settings",
      payload: { hf_token: "hf_saved_secret" },
    });
    expect(put.statusCode).toBe(200);
    expect(put.body).not.toContain("hf_saved_secret");
    const saved = await readSettings(app);
    expect(saved.settings.hf_token_set).toBe(true);
    expect(saved.effective.hf_token_source).toBe("settings");
    expect(JSON.stringify(saved)).not.toContain("hf_saved_secret");
    // No restart needed: the next Hub call carries the saved token.
    expect(saved.restart_required).not.toContain("hf_token");
    await browse();
    expect(seen.at(-1)).toBe("Bearer hf_saved_secret");

    await app.inject({ method: "PUT", url: "/admin/api/settings", payload: { hf_token: null } });
    expect((await readSettings(app)).settings.hf_token_set).toBe(false);
    await browse();
    expect(seen.at(-1)).toBe("Bearer hf_from_env");
    await app.close();
  });

  it("refuses an empty token with a field error", async () => {
    const { app } = await buildAdminApp(base);
    const put = await app.inject({ method: "PUT", url: "/admin/api/settings", payload: { hf_token: "  " } });
    expect(put.statusCode).toBe(400);
    expect(put.json().error.code).toBe("invalid_request");
    await app.close();
  });
});

describe("inference threads in the settings", () => {
  it("validates the field, reports the default and the value in effect, and waits for a restart", async () => {
    const { app, services } = await buildAdminApp(base);
    services.settings.markStarted(await services.settings.get(), { threads: 3, defaultThreads: 3 });
    for (const threads of [0, 1.5, 1000, "4"]) {
      const refused = await app.inject({ method: "PUT", url: "/admin/api/settings", payload: { threads } });
      expect(refused.statusCode, String(threads)).toBe(400);
    }
    const put = await app.inject({ method: "PUT", url: "/admin/api/settings", payload: { threads: 6 } });
    expect(put.statusCode).toBe(200);
    const answer = await readSettings(app);
    expect(answer.settings.threads).toBe(6);
    expect(answer.effective).toMatchObject({ threads: 3, default_threads: 3 });
    expect(answer.restart_required).toContain("threads");
    await app.close();
  });

  it("takes effect at start: the saved value becomes the engine's threads unless --threads wins", async () => {
    const { services } = await buildAdminApp(base);
    const stored = await services.settings.update({ threads: 5 });
    expect(resolveConfig({ ...settingsToConfig(stored) }).threads).toBe(5);
    expect(resolveConfig({ ...settingsToConfig(stored), threads: 2 }).threads).toBe(2);
    const cleared = await services.settings.update({ threads: null });
    expect(resolveConfig({ ...settingsToConfig(cleared) }).threads).toBe(resolveConfig({}).threads);
  });
});
