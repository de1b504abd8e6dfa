import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modelIdPath } from "../../../src-shared/contracts/catalog.js";
import { globalSettingsResponseSchema } from "../../../src-shared/contracts/settings.js";
import { writeTinyGguf } from "../../helpers/writeTinyGguf.js";
import { buildAdminApp } from "../catalog/buildAdminApp.js";

let base: string;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-settings-routes-"));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("settings routes", () => {
  it("reads and patches global settings; never echoes the API key", async () => {
    const { app, services } = await buildAdminApp(base);
    services.settings.markStarted(await services.settings.get());
    const initial = globalSettingsResponseSchema.parse(
      (await app.inject({ method: "GET", url: "/admin/api/settings" })).json(),
    );
    expect(initial.settings).toMatchObject({
      port: 11435,
      api_key_set: false,
      community_upload_enabled: false,
    });
    expect(initial.effective).toEqual({
      host: null,
      port: null,
      models_dirs: [path.join(base, "models")],
      hf_endpoint: "https://huggingface.co",
      modelscope_endpoint: "https://www.modelscope.cn",
      hf_token_source: null,
      threads: null,
      default_threads: 1,
    });
    // A server started with `--port 11436` shows that port as the effective one, not the file's.
    services.settings.markListening({ host: "127.0.0.1", port: 11436 });
    const running = globalSettingsResponseSchema.parse(
      (await app.inject({ method: "GET", url: "/admin/api/settings" })).json(),
    );
    expect(running.effective).toMatchObject({ host: "127.0.0.1", port: 11436 });
    expect(running.settings.port).toBe(11435);
    const put = await app.inject({
      method: "PUT",
      url: "/admin/api/settings",
      payload: {
        api_key: "s3cret",
        port: 9000,
        hf_endpoint: "https://hf-mirror.example",
        community_upload_enabled: true,
      },
    });
    expect(put.statusCode).toBe(200);
    expect(put.body).not.toContain("s3cret");
    expect(put.json()).toMatchObject({
      settings: { api_key_set: true, port: 9000, community_upload_enabled: true },
      effective: { hf_endpoint: "https://hf-mirror.example" },
      restart_required: ["port", "api_key"],
    });
    const invalid = await app.inject({ method: "PUT", url: "/admin/api/settings", payload: { port: -1 } });
    expect(invalid.statusCode).toBe(400);
    const unknown = await app.inject({
      method: "PUT",
      url: "/admin/api/settings",
      payload: { colour: "red" },
    });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.parse(await fs.readFile(path.join(base, "settings.json"), "utf8"))).toMatchObject({
      api_key: "s3cret",
      port: 9000,
    });
    await app.close();
  });

  it("refuses a host the server could not listen on, naming the field; accepts addresses and names", async () => {
    const { app } = await buildAdminApp(base);
    const put = (host: string) =>
      app.inject({ method: "PUT", url: "/admin/api/settings", payload: { host } });
    for (const host of ["not a host!!", "300.1.2.3", "-x", "1.2.3", "a..b", "http://x"]) {
      const answer = await put(host);
      expect(answer.statusCode, host).toBe(400);
      expect(answer.json().error.param, host).toBe("host");
    }
    for (const host of ["0.0.0.0", "127.0.0.1", "::1", "::", "fe80::1", "localhost", "my-mac.local"]) {
      expect((await put(host)).statusCode, host).toBe(200);
    }
    await app.close();
  });

  it("never lets the HTTP API choose the Python that Perch runs", async () => {
    const { app, services } = await buildAdminApp(base);
    const put = await app.inject({
      method: "PUT",
      url: "/admin/api/settings",
      payload: { python_path: "/bin/sh" },
    });
    expect(put.statusCode).toBe(400);
    expect((await services.settings.get()).python_path).toBeNull();
    // Perch's own detection remembers it; the API shows it.
    await services.settings.update({ python_path: "/usr/bin/python3" });
    const read = (await app.inject({ method: "GET", url: "/admin/api/settings" })).json();
    expect(read.settings.python_path).toBe("/usr/bin/python3");
  });

  it("hands an applied profile's or template's settings to the engine, as a settings PUT does", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "m.gguf"));
    const { app, engine } = await buildAdminApp(base);
    const model = `/admin/api/models/${modelIdPath("org/m")}`;
    await app.inject({ method: "POST", url: `${model}/load` });
    await app.inject({ method: "PUT", url: `${model}/settings`, payload: { alias: "mine" } });
    expect(engine.applied("org/m")).toEqual({ alias: "mine" });
    await app.inject({
      method: "PUT",
      url: `${model}/profiles/short`,
      payload: { settings: { sampling: { max_tokens: 3 }, ttl_seconds: 60 } },
    });
    expect((await app.inject({ method: "POST", url: `${model}/profiles/short/apply` })).statusCode).toBe(200);
    // The loaded model answers with the profile's max_tokens and TTL from the next request on
    // (they were saved, but the engine went on with the settings it had until a reload).
    expect(engine.applied("org/m")).toEqual({ alias: "mine", sampling: { max_tokens: 3 }, ttl_seconds: 60 });
    await app.inject({
      method: "PUT",
      url: "/admin/api/templates/Keep",
      payload: { settings: { ttl_seconds: 0, max_queue: 2 } },
    });
    const applied = await app.inject({
      method: "POST",
      url: "/admin/api/templates/Keep/apply",
      payload: { model_id: "org/m" },
    });
    expect(applied.statusCode).toBe(200);
    expect(engine.applied("org/m")).toEqual(applied.json().settings);
    expect(engine.applied("org/m")).toMatchObject({
      ttl_seconds: 0,
      max_queue: 2,
      sampling: { max_tokens: 3 },
    });
    await app.close();
  });

  it("refuses a profile whose draft model Perch does not have, as a settings PUT does", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "m.gguf"));
    await writeTinyGguf(path.join(base, "models", "org", "draft.gguf"));
    const { app, services } = await buildAdminApp(base);
    const model = `/admin/api/models/${modelIdPath("org/m")}`;
    const missing = await app.inject({
      method: "PUT",
      url: `${model}/profiles/spec`,
      payload: { settings: { speculative: { mode: "draft", draftModel: "org/nope" } } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: "invalid_request", param: "speculative.draftModel" });
    expect(await services.profiles.listProfiles("org/m")).toEqual([]);
    const kept = await app.inject({
      method: "PUT",
      url: `${model}/profiles/spec`,
      payload: { settings: { speculative: { mode: "draft", draftModel: "org/draft" } } },
    });
    expect(kept.statusCode).toBe(200);
    expect((await services.profiles.listProfiles("org/m"))[0].settings).toEqual({
      speculative: { mode: "draft", draftModel: "org/draft" },
    });
    await app.close();
  });

  it("stores profiles per model and global templates, and applies them", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "m.gguf"));
    const { app } = await buildAdminApp(base);
    const model = `/admin/api/models/${modelIdPath("org/m")}`;
    await app.inject({ method: "PUT", url: `${model}/settings`, payload: { tags: ["Mine"], pinned: true } });

    const profile = await app.inject({
      method: "PUT",
      url: `${model}/profiles/Long%20context`,
      payload: { settings: { context_size: 32768, sampling: { temperature: 0.1 } } },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ name: "Long context", settings: { context_size: 32768 } });
    const excluded = await app.inject({
      method: "PUT",
      url: `${model}/profiles/bad`,
      payload: { settings: { tags: ["x"] } },
    });
    expect(excluded.statusCode).toBe(400);
    const applied = await app.inject({ method: "POST", url: `${model}/profiles/long%20context/apply` });
    expect(applied.json()).toEqual({
      model_id: "org/m",
      settings: { tags: ["Mine"], pinned: true, context_size: 32768, sampling: { temperature: 0.1 } },
    });
    expect((await app.inject({ method: "GET", url: `${model}/profiles` })).json().profiles).toHaveLength(1);

    const template = await app.inject({
      method: "PUT",
      url: "/admin/api/templates/Greedy",
      payload: { settings: { sampling: { temperature: 0 }, max_concurrent_requests: 2 } },
    });
    expect(template.statusCode).toBe(200);
    const modelSpecific = await app.inject({
      method: "PUT",
      url: "/admin/api/templates/Ctx",
      payload: { settings: { context_size: 4096 } },
    });
    expect(modelSpecific.statusCode).toBe(400);
    const appliedTemplate = await app.inject({
      method: "POST",
      url: "/admin/api/templates/greedy/apply",
      payload: { model_id: "org/m" },
    });
    expect(appliedTemplate.json().settings).toMatchObject({
      sampling: { temperature: 0 },
      max_concurrent_requests: 2,
    });
    const unknownModel = await app.inject({
      method: "POST",
      url: "/admin/api/templates/greedy/apply",
      payload: { model_id: "org/none" },
    });
    expect(unknownModel.statusCode).toBe(404);
    expect((await app.inject({ method: "DELETE", url: "/admin/api/templates/Greedy" })).statusCode).toBe(200);
    expect((await app.inject({ method: "DELETE", url: "/admin/api/templates/Greedy" })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: "/admin/api/templates" })).json()).toEqual({
      templates: [],
    });
    await app.close();
  });
});
