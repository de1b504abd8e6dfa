import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modelIdPath } from "../../../src-shared/contracts/catalog.js";
import { modelListResponseSchema } from "../../../src-shared/contracts/models.js";
import { writeTinyGguf } from "../../helpers/writeTinyGguf.js";
import { resolveOllamaModel } from "../../../src-main/server/ollama/resolveOllamaModel.js";
import { buildAdminApp, loadedInfo } from "./buildAdminApp.js";

let base: string;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-models-routes-"));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const url = (modelId: string, suffix = "") => `/admin/api/models/${modelIdPath(modelId)}${suffix}`;

describe("admin model routes", () => {
  it("lists discovered models with catalog facts, settings, summaries and engine state", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "repo", "m-Q8_0.gguf"), { expertCount: 4 });
    await writeTinyGguf(path.join(base, "models", "plain.gguf"));
    const { app, engine } = await buildAdminApp(base);
    engine.loaded = [loadedInfo("plain", 1)];
    const response = await app.inject({ method: "GET", url: "/admin/api/models" });
    expect(response.statusCode).toBe(200);
    const body = modelListResponseSchema.parse(response.json());
    expect(body.models_dirs).toEqual([path.join(base, "models")]);
    expect(body.models.map((model) => [model.id, model.load.state, model.suggested_tags])).toEqual([
      ["org/repo/m-Q8_0", "unloaded", ["MoE"]],
      ["plain", "loaded", ["Dense"]],
    ]);
    expect(body.models[0]).toMatchObject({
      settings: {},
      tags: [],
      accuracy: { latest: null, best: null, best_by_benchmark: {} },
      performance: null,
      gguf: { quantization: "Q8_0", expert_count: 4 },
    });
    await app.close();
  });

  it("PUT settings validates, normalizes tags, persists across a restart and applies pinning", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "repo", "m.gguf"));
    const first = await buildAdminApp(base);
    const put = await first.app.inject({
      method: "PUT",
      url: url("org/repo/m", "/settings"),
      payload: { tags: [" Coding ", "coding", "", "MoE"], pinned: true, sampling: { temperature: 0.3 } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({
      model_id: "org/repo/m",
      settings: { tags: ["Coding", "MoE"], pinned: true, sampling: { temperature: 0.3 } },
    });
    expect(first.engine.pinned).toEqual([["org/repo/m", true]]);
    const bad = await first.app.inject({
      method: "PUT",
      url: url("org/repo/m", "/settings"),
      payload: { sampling: { temperature: 9 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe("invalid_request");
    const unknownField = await first.app.inject({
      method: "PUT",
      url: url("org/repo/m", "/settings"),
      payload: { x: 1 },
    });
    expect(unknownField.statusCode).toBe(400);
    const missing = await first.app.inject({ method: "PUT", url: url("org/nope", "/settings"), payload: {} });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("model_not_found");
    await first.app.close();

    const second = await buildAdminApp(base);
    const row = await second.app.inject({ method: "GET", url: url("org/repo/m") });
    expect(row.json()).toMatchObject({
      tags: ["Coding", "MoE"],
      settings: { pinned: true },
      suggested_tags: [],
    });
    await second.app.close();
  });

  it("answers 400 invalid_id for malformed ids and 404 for unknown ones", async () => {
    const { app } = await buildAdminApp(base);
    for (const bad of ["..%2Fetc", "%2Fabs", "a%2F%2Fb", "a%00b"]) {
      const response = await app.inject({ method: "GET", url: `/admin/api/models/${bad}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("invalid_id");
    }
    const unknown = await app.inject({ method: "GET", url: url("no/such") });
    expect(unknown.statusCode).toBe(404);
    await app.close();
  });

  it("rescans, reloads with empty model dirs into the default dir, and unloads only idle changed models", async () => {
    await writeTinyGguf(path.join(base, "models", "home.gguf"));
    await writeTinyGguf(path.join(base, "models", "busy.gguf"));
    await writeTinyGguf(path.join(base, "other", "away.gguf"));
    await fs.writeFile(
      path.join(base, "settings.json"),
      JSON.stringify({ models_dirs: [path.join(base, "other")] }),
    );
    const { app, engine } = await buildAdminApp(base);
    const scan = await app.inject({ method: "POST", url: "/admin/api/rescan" });
    expect(scan.json()).toMatchObject({ added: ["away"], total: 1, models_dirs: [path.join(base, "other")] });

    // Edit the files by hand, as a user would, then reload.
    await fs.writeFile(path.join(base, "settings.json"), JSON.stringify({ models_dirs: [] }));
    await fs.writeFile(
      path.join(base, "model_settings.json"),
      JSON.stringify({ version: 1, models: { home: { ttl_seconds: 5 }, busy: { ttl_seconds: 5 } } }),
    );
    engine.loaded = [loadedInfo("home"), loadedInfo("busy", 2), loadedInfo("away")];
    const reload = await app.inject({ method: "POST", url: "/admin/api/reload" });
    expect(reload.statusCode).toBe(200);
    expect(reload.json()).toMatchObject({
      models_dirs: [path.join(base, "models")],
      added: ["busy", "home"],
      missing: ["away"],
      unloaded: ["home", "away"],
      kept_busy: ["busy"],
    });
    expect(engine.loaded.map((info) => info.id)).toEqual(["busy"]);
    await app.close();
  });

  it("deletes a model's files and entry, refuses while it is busy, unloads it when idle", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "x.gguf"));
    const { app, engine } = await buildAdminApp(base);
    await app.inject({ method: "POST", url: "/admin/api/rescan" });
    engine.loaded = [loadedInfo("org/x", 1)];
    expect((await app.inject({ method: "DELETE", url: url("org/x") })).statusCode).toBe(409);
    expect((await app.inject({ method: "POST", url: url("org/x", "/unload") })).statusCode).toBe(409);
    engine.loaded = [loadedInfo("org/x", 0)];
    const deleted = await app.inject({ method: "DELETE", url: url("org/x") });
    expect(deleted.json()).toEqual({
      deleted: true,
      model_id: "org/x",
      files: [path.join(base, "models", "org", "x.gguf")],
    });
    expect(engine.unloaded).toEqual(["org/x"]);
    expect(await fs.readdir(path.join(base, "models"))).toEqual([]);
    expect((await app.inject({ method: "GET", url: url("org/x") })).statusCode).toBe(404);
    await app.close();
  });

  it("refuses a new context size for a busy model with 409 and keeps its saved settings", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "busy.gguf"));
    const { app, engine } = await buildAdminApp(base);
    const first = await app.inject({
      method: "POST",
      url: url("org/busy", "/load"),
      payload: { context_size: 2048 },
    });
    expect(first.statusCode).toBe(200);
    engine.loaded = [loadedInfo("org/busy", 1)];
    const refused = await app.inject({
      method: "POST",
      url: url("org/busy", "/load"),
      payload: { context_size: 4096, ttl_seconds: 60 },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("conflict");
    // Nothing of the refused request was saved or applied: the model keeps what it runs with.
    const row = await app.inject({ method: "GET", url: url("org/busy") });
    expect(row.json().settings).toEqual({ context_size: 2048 });
    expect(engine.pinned).toHaveLength(1);
    await app.close();
  });

  it("load reloads an idle model whose saved load-time settings differ from the ones it runs with", async () => {
    await writeTinyGguf(path.join(base, "models", "org", "ctx.gguf"));
    const { app, engine } = await buildAdminApp(base);
    const load = (payload: object) => app.inject({ method: "POST", url: url("org/ctx", "/load"), payload });
    expect((await load({ context_size: 256 })).statusCode).toBe(200);
    expect(engine.running.get("org/ctx")).toMatchObject({ context_size: 256 });
    // The dashboard saves a new size; it waits for the next load.
    const saved = await app.inject({
      method: "PUT",
      url: url("org/ctx", "/settings"),
      payload: { context_size: 2048 },
    });
    expect(saved.statusCode).toBe(200);
    expect(engine.running.get("org/ctx")).toMatchObject({ context_size: 256 });
    // `perch load --ctx 2048` asks for what is saved: the model is loaded again with it.
    const again = await load({ context_size: 2048 });
    expect(again.json()).toMatchObject({ loaded: true, settings: { context_size: 2048 } });
    expect(engine.unloaded).toEqual(["org/ctx"]);
    expect(engine.running.get("org/ctx")).toMatchObject({ context_size: 2048 });
    // Asked again, nothing is stale: no reload.
    expect((await load({ context_size: 2048 })).statusCode).toBe(200);
    expect(engine.unloaded).toEqual(["org/ctx"]);
    // Busy with pending settings and nothing asked: it stays loaded as it is, no 409.
    await app.inject({ method: "PUT", url: url("org/ctx", "/settings"), payload: { context_size: 512 } });
    engine.loaded = [loadedInfo("org/ctx", 1)];
    expect((await load({})).statusCode).toBe(200);
    expect(engine.unloaded).toEqual(["org/ctx"]);
    await app.close();
  });

  it("refuses an alias that is another model's id or alias, naming the field", async () => {
    await writeTinyGguf(path.join(base, "models", "one.gguf"));
    await writeTinyGguf(path.join(base, "models", "two.gguf"));
    const { app } = await buildAdminApp(base);
    const put = (id: string, payload: object) =>
      app.inject({ method: "PUT", url: url(id, "/settings"), payload });
    const taken = await put("one", { alias: "Two" });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error).toMatchObject({ code: "invalid_request", param: "alias" });
    expect(taken.json().error.message).toContain("names another model ('two')");
    // Ollama's `:latest` form of another model's id means that model on /api/* (it was accepted,
    // and the name then reached one model through OpenAI and the other through Ollama).
    const tagged = await put("one", { alias: "TWO:latest" });
    expect(tagged.statusCode).toBe(400);
    expect(tagged.json().error.message).toContain("names another model ('two')");
    expect((await put("one", { alias: "My model" })).statusCode).toBe(200);
    const twice = await put("two", { alias: "my model" });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toContain("already the alias of 'one'");
    expect((await put("two", { alias: "my model:latest" })).statusCode).toBe(400);
    // Its own alias again, or its own id, is fine.
    expect((await put("one", { alias: "My model", pinned: true })).statusCode).toBe(200);
    expect((await put("two", { alias: "two" })).statusCode).toBe(200);
    await app.close();
  });

  it("refuses an alias that is another model's Ollama name, and resolves a name the same way on every route", async () => {
    // A Hugging Face cache repo: its models are hf.co/acme/multi-GGUF:QUANT, and the bare repo
    // name means its Q4_K_M.
    const repo = path.join(base, "models", "models--acme--multi-GGUF");
    const snapshot = path.join(repo, "snapshots", "c".repeat(40));
    for (const quant of ["Q8_0", "F16"]) await writeTinyGguf(path.join(snapshot, `multi-${quant}.gguf`));
    const { app, services } = await buildAdminApp(base);
    const put = (id: string, payload: object) =>
      app.inject({ method: "PUT", url: url(id, "/settings"), payload });
    const q8 = "acme/multi-GGUF/multi-Q8_0";
    // Without a Q4_K_M, the repo name names no model yet: taken as an alias.
    expect((await put(q8, { alias: "hf.co/acme/multi-GGUF" })).statusCode).toBe(200);
    await writeTinyGguf(path.join(snapshot, "multi-Q4_K_M.gguf"), { fileType: 15 });
    await services.catalog.rescan();
    const q4 = "acme/multi-GGUF/multi-Q4_K_M";
    // Was accepted: the admin and OpenAI routes then meant Q8_0 by it, /api/* Q4_K_M.
    for (const alias of [
      "hf.co/acme/multi-GGUF",
      "HF.CO/acme/multi-gguf:latest",
      "hf.co/acme/multi-GGUF:Q4_K_M",
      "hf.co/acme/multi-gguf:f16",
      `${q4}:latest`,
    ]) {
      const refused = await put(q8, { alias });
      expect(refused.statusCode, alias).toBe(400);
      expect(refused.json().error).toMatchObject({ code: "invalid_request", param: "alias" });
      expect(refused.json().error.message).toContain("already names another model");
    }
    // Its own Ollama name is fine.
    expect((await put(q8, { alias: "hf.co/acme/multi-GGUF:Q8_0" })).statusCode).toBe(200);
    // The alias saved before the Q4_K_M came: the repo's own name wins on every route.
    await services.modelSettings.set(q8, { alias: "hf.co/acme/multi-GGUF" });
    const name = "hf.co/acme/multi-GGUF";
    expect(await services.catalog.canonicalId(name)).toBe(q4);
    expect((await app.inject({ method: "GET", url: url(name) })).json().id).toBe(q4);
    const ollama = {
      listModels: () => services.catalog.list(),
      canonicalId: (n: string) => services.catalog.canonicalId(n),
    };
    expect(await resolveOllamaModel(ollama, name, { required: true })).toBe(q4);
    await app.close();
  });

  it("refuses draft speculation without a draft model Perch has, and stores the draft by id", async () => {
    await writeTinyGguf(path.join(base, "models", "target.gguf"));
    await writeTinyGguf(path.join(base, "models", "small.gguf"));
    const { app } = await buildAdminApp(base);
    const put = (id: string, payload: object) =>
      app.inject({ method: "PUT", url: url(id, "/settings"), payload });
    // Accepted before, then silently off at every load (only the log said so).
    const none = await put("target", { speculative: { mode: "draft" } });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toMatchObject({ code: "invalid_request", param: "speculative.draftModel" });
    const unknown = await put("target", { speculative: { mode: "draft", draftModel: "nope" } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.param).toBe("speculative.draftModel");
    expect((await put("small", { alias: "Tiny drafter" })).statusCode).toBe(200);
    const byAlias = await put("target", {
      speculative: { mode: "draft", draftModel: "tiny drafter:latest" },
    });
    expect(byAlias.statusCode).toBe(200);
    expect(byAlias.json().settings.speculative).toEqual({ mode: "draft", draftModel: "small" });
    // Other modes need no draft model.
    expect((await put("target", { speculative: { mode: "lookup" } })).statusCode).toBe(200);
    // A draft still catalogued whose file is gone (deleted outside Perch) is refused too: it was
    // accepted, and speculation was silently off at every load.
    await fs.rm(path.join(base, "models", "small.gguf"));
    expect((await app.inject({ method: "POST", url: "/admin/api/rescan" })).json().missing).toEqual([
      "small",
    ]);
    const gone = await put("target", { speculative: { mode: "draft", draftModel: "small" } });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().error).toMatchObject({ code: "invalid_request", param: "speculative.draftModel" });
    expect(gone.json().error.message).toContain("no file on disk");
    await app.close();
  });

  it("checks a local model's update as not_applicable without touching the network", async () => {
    await writeTinyGguf(path.join(base, "models", "local.gguf"));
    const { app } = await buildAdminApp(base, { env: { HF_ENDPOINT: "http://127.0.0.1:9" } });
    const one = await app.inject({ method: "POST", url: url("local", "/check-update") });
    expect(one.json()).toMatchObject({ model_id: "local", update_status: "not_applicable" });
    const all = await app.inject({ method: "POST", url: "/admin/api/models/check-updates" });
    expect(all.json().results).toHaveLength(1);
    await app.close();
  });

  it("requires the API key from settings when one is set", async () => {
    const { app } = await buildAdminApp(base, { apiKey: "k" });
    expect((await app.inject({ method: "GET", url: "/admin/api/models" })).statusCode).toBe(401);
    const ok = await app.inject({
      method: "GET",
      url: "/admin/api/models",
      headers: { authorization: "Bearer k" },
    });
    expect(ok.statusCode).toBe(200);
    await app.close();
  });
});
