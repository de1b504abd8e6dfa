import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globalSettingsPatchSchema } from "../../../src-shared/contracts/settings.js";
import { ModelProfilesStore } from "../../../src-main/settings/ModelProfilesStore.js";
import { ModelSettingsStore } from "../../../src-main/settings/ModelSettingsStore.js";
import { SettingsStore } from "../../../src-main/settings/SettingsStore.js";
import { listModelRows } from "../../../src-main/catalog/listModelRows.js";
import { settingsToConfig } from "../../../src-main/core/settingsToConfig.js";
import { SettingsUnreadableError } from "../../../src-main/settings/SettingsUnreadableError.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "perch-settings-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("SettingsStore", () => {
  it("says a key is set when the server started with one from the command line, never showing it", async () => {
    const store = new SettingsStore({ basePath: dir, env: {} });
    store.markStarted(await store.get(), { apiKeyInEffect: true });
    const response = await store.toResponse();
    expect(response.settings.api_key_set).toBe(true);
    expect(JSON.stringify(response)).not.toContain('api_key":');
    const without = new SettingsStore({ basePath: dir, env: {} });
    without.markStarted(await without.get());
    expect((await without.toResponse()).settings.api_key_set).toBe(false);
  });

  it("refuses a corrupt settings.json (it holds the API key) instead of starting from defaults", async () => {
    const file = path.join(dir, "settings.json");
    await fs.writeFile(file, '{"api_key": "sec');
    const store = new SettingsStore({ basePath: dir, env: {} });
    await expect(store.get()).rejects.toBeInstanceOf(SettingsUnreadableError);
    await expect(store.update({ default_ttl_seconds: 5 })).rejects.toThrow(file);
    expect(await fs.readFile(file, "utf8")).toBe('{"api_key": "sec');
  });

  it("has defaults, persists patches and resolves the default models dir", async () => {
    const store = new SettingsStore({ basePath: dir, env: {} });
    const defaults = await store.get();
    expect(defaults).toMatchObject({
      host: "127.0.0.1",
      port: 11435,
      models_dirs: [],
      api_key: null,
      allow_remote_admin: false,
      community_upload_enabled: false,
      default_ttl_seconds: 900,
    });
    expect(await store.modelsDirs()).toEqual([path.join(dir, "models")]);
    store.markStarted(defaults);
    await store.update({
      api_key: "secret",
      models_dirs: [path.join(dir, "elsewhere")],
      community_upload_enabled: true,
    });
    const reopened = new SettingsStore({ basePath: dir, env: {} });
    expect(await reopened.get()).toMatchObject({ api_key: "secret", community_upload_enabled: true });
    expect(await reopened.modelsDirs()).toEqual([path.join(dir, "elsewhere")]);
    expect(settingsToConfig(await reopened.get())).toMatchObject({ apiKey: "secret" });
    const response = await store.toResponse();
    expect(response.settings).not.toHaveProperty("api_key");
    expect(response.settings.api_key_set).toBe(true);
    expect(response.restart_required).toEqual(["api_key"]);
    await store.update({ models_dirs: [] });
    expect(await store.modelsDirs()).toEqual([path.join(dir, "models")]);
  });

  it("answers the --models-dir folders (they win over the file) wherever the models folders are asked for", async () => {
    const cli = path.join(dir, "from-cli");
    await fs.writeFile(
      path.join(dir, "settings.json"),
      JSON.stringify({ models_dirs: [path.join(dir, "in-file")] }),
    );
    const store = new SettingsStore({ basePath: dir, env: {}, modelsDirsOverride: [cli] });
    expect(await store.modelsDirs()).toEqual([cli]);
    expect((await store.toResponse()).effective.models_dirs).toEqual([cli]);
    const rows = await listModelRows({
      catalog: { list: async () => [] },
      modelSettings: { all: async () => ({}) },
      summaries: { get: async () => ({ accuracy: [], performance: [] }) } as never,
      settings: store,
      engine: { list: () => [] },
    });
    expect(rows.models_dirs).toEqual([cli]);
  });

  it("resolves hub endpoints: settings, then HF_ENDPOINT / MODELSCOPE_ENDPOINT, then the public sites", async () => {
    const plain = new SettingsStore({ basePath: dir, env: {} });
    expect(await plain.hubEndpoints()).toEqual({
      hf: "https://huggingface.co",
      modelscope: "https://www.modelscope.cn",
      hfToken: undefined,
      hfTokenSource: null,
    });
    const mirrored = new SettingsStore({
      basePath: dir,
      env: { HF_ENDPOINT: "https://hf-mirror.com/", MODELSCOPE_ENDPOINT: "http://ms.local" },
    });
    expect(await mirrored.hubEndpoints()).toEqual({
      hf: "https://hf-mirror.com",
      modelscope: "http://ms.local",
      hfToken: undefined,
      hfTokenSource: null,
    });
    await mirrored.update({ hf_endpoint: "http://127.0.0.1:9999" });
    expect((await mirrored.hubEndpoints()).hf).toBe("http://127.0.0.1:9999");
  });

  it("patch schema is strict and never fills defaults", () => {
    expect(globalSettingsPatchSchema.parse({ port: 1234 })).toEqual({ port: 1234 });
    expect(globalSettingsPatchSchema.safeParse({ nope: 1 }).success).toBe(false);
    expect(globalSettingsPatchSchema.safeParse({ hf_endpoint: "file:///etc" }).success).toBe(false);
  });
});

describe("ModelProfilesStore", () => {
  it("keeps per-model profiles and global templates, validated by field class", async () => {
    const profiles = new ModelProfilesStore({ basePath: dir });
    await profiles.putProfile("m", "Long", { context_size: 16384, sampling: { temperature: 0.2 } });
    await profiles.putProfile("m", "long", { context_size: 8192 });
    expect((await profiles.listProfiles("m")).map((p) => [p.name, p.settings.context_size])).toEqual([
      ["long", 8192],
    ]);
    await expect(profiles.putProfile("m", "bad", { tags: ["x"] } as never)).rejects.toMatchObject({
      code: "invalid_request",
    });
    await profiles.putTemplate("Precise", { sampling: { temperature: 0 } });
    await expect(profiles.putTemplate("ctx", { context_size: 4096 } as never)).rejects.toMatchObject({
      code: "invalid_request",
    });
    const reopened = new ModelProfilesStore({ basePath: dir });
    expect((await reopened.listTemplates()).map((t) => t.name)).toEqual(["Precise"]);
    await reopened.deleteProfile("m", "LONG");
    expect(await reopened.listProfiles("m")).toEqual([]);
    await expect(reopened.getTemplate("none")).rejects.toMatchObject({ code: "not_found" });

    const settings = new ModelSettingsStore({ basePath: dir });
    await settings.set("m", { pinned: true, tags: ["Mine"] });
    const merged = await settings.merge("m", (await reopened.getTemplate("precise")).settings);
    expect(merged).toEqual({ pinned: true, tags: ["Mine"], sampling: { temperature: 0 } });
  });
});
