import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DownloadEvent } from "../../../src-shared/contracts/catalog.js";
import { DownloadManager } from "../../../src-main/catalog/downloads/DownloadManager.js";
import { HuggingFaceDownloader } from "../../../src-main/catalog/downloads/HuggingFaceDownloader.js";
import { ModelScopeDownloader } from "../../../src-main/catalog/downloads/ModelScopeDownloader.js";
import { ModelCatalog } from "../../../src-main/catalog/ModelCatalog.js";
import { UpdateChecker } from "../../../src-main/catalog/UpdateChecker.js";
import { ollamaDigest } from "../../../src-main/server/ollama/toOllamaDetails.js";
import { ModelSettingsStore } from "../../../src-main/settings/ModelSettingsStore.js";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import { tinyGgufBytes } from "../../helpers/writeTinyGguf.js";

let base: string;
let hub: FakeHub;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-downloads-"));
  hub = await startFakeHub();
});
afterEach(async () => {
  await hub.close();
  await fs.rm(base, { recursive: true, force: true });
});

/** A repo folder with the given files (GGUFs get a valid header plus `padding` bytes). */
async function repoDir(name: string, files: Record<string, number | string>): Promise<string> {
  const dir = path.join(base, "remote", name);
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    const bytes = typeof content === "string" ? Buffer.from(content) : tinyGgufBytes({ padding: content });
    await fs.writeFile(path.join(dir, file), bytes);
  }
  return dir;
}

function setup() {
  const modelsDir = path.join(base, "models");
  const settings = new ModelSettingsStore({ basePath: base });
  const catalog = new ModelCatalog({ basePath: base, modelsDirs: () => [modelsDir], settings });
  const downloaders = {
    hf: new HuggingFaceDownloader({ endpoint: () => hub.url, accessToken: undefined }),
    modelscope: new ModelScopeDownloader({ endpoint: () => hub.url }),
  };
  const downloads = new DownloadManager({
    catalog,
    downloaders,
    targetDir: () => modelsDir,
    progressIntervalMs: 0,
  });
  const updates = new UpdateChecker({ catalog, downloaders, concurrency: 2 });
  return { modelsDir, catalog, downloads, updates };
}

const sha256 = async (file: string) =>
  crypto
    .createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex");

describe("downloads through the real @huggingface/hub client against the fake Hub", () => {
  it("resumes an interrupted download, verifies sha256 and records source hf, repo and revision", async () => {
    const remote = await repoDir("hf1", { "tiny-Q8_0.gguf": 3 * 1024 * 1024, "README.md": "# tiny" });
    const head = hub.addRepo({ id: "acme/tiny-GGUF", dir: remote });
    const { modelsDir, catalog, downloads, updates } = setup();

    hub.dropNextDownloadAfter(1024 * 1024);
    const run = await downloads.start({ source: "hf", repo: "acme/tiny-GGUF", quant: "Q8_0" });
    expect(run.model_id).toBe("acme/tiny-GGUF/tiny-Q8_0");
    const failed = await downloads.wait(run.run_id);
    expect(failed.status).toBe("failed");
    const target = path.join(modelsDir, "acme", "tiny-GGUF", "tiny-Q8_0.gguf");
    const partial = (await fs.stat(`${target}.part`)).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(3 * 1024 * 1024);

    const events: DownloadEvent[] = [];
    downloads.resume(run.run_id);
    const done = await downloads.wait(run.run_id);
    expect(done.status).toBe("completed");
    // A late subscriber gets the whole story replayed, including the resumed start.
    downloads.subscribe(run.run_id, (event) => events.push(event));
    expect(events.map((event) => event.type)).toEqual([
      "started",
      "progress",
      "failed",
      "started",
      "progress",
      "verifying",
      "file_completed",
      "completed",
    ]);
    const resumedStart = events.filter((event) => event.type === "started")[1];
    expect(resumedStart).toMatchObject({ resumed_from_bytes: partial });
    expect(
      hub.requests.some(
        (request) => request.range === `bytes=${partial}-${3 * 1024 * 1024 + tinyGgufBytes().length - 1}`,
      ),
    ).toBe(true);

    expect(await sha256(target)).toBe(await sha256(path.join(remote, "tiny-Q8_0.gguf")));
    await expect(fs.access(`${target}.part`)).rejects.toThrow();
    const entry = await catalog.get("acme/tiny-GGUF/tiny-Q8_0");
    expect(entry).toMatchObject({
      source: "hf",
      repo: "acme/tiny-GGUF",
      revision: head,
      remote_path: "tiny-Q8_0.gguf",
      file_oid: await sha256(target),
      update_status: "up_to_date",
      missing: false,
    });
    expect(entry.gguf).toMatchObject({ architecture: "llama", quantization: "Q8_0" });

    // Head moves but the GGUF is the same (a README commit): still up to date.
    const readmeOnly = await repoDir("hf1b", { "tiny-Q8_0.gguf": 3 * 1024 * 1024, "README.md": "# changed" });
    hub.pushRevision("acme/tiny-GGUF", readmeOnly);
    expect(await updates.check("acme/tiny-GGUF/tiny-Q8_0")).toMatchObject({ update_status: "up_to_date" });
    // Head moves with a new GGUF: update available.
    const changed = await repoDir("hf2", { "tiny-Q8_0.gguf": 3 * 1024 * 1024 + 1 });
    const newHead = hub.pushRevision("acme/tiny-GGUF", changed);
    expect(await updates.check("acme/tiny-GGUF/tiny-Q8_0")).toMatchObject({
      update_status: "update_available",
      revision: head,
      remote_revision: newHead,
    });
    expect((await catalog.get("acme/tiny-GGUF/tiny-Q8_0")).update_status).toBe("update_available");
  });

  it("cancels a running download and resumes it from the part file", async () => {
    const remote = await repoDir("hf-cancel", { "slow-Q4_K_M.gguf": 2 * 1024 * 1024 });
    hub.addRepo({ id: "acme/slow", dir: remote });
    hub.setChunkDelay(30);
    const { downloads, modelsDir } = setup();
    const run = await downloads.start({ source: "hf", repo: "acme/slow", file: "slow-Q4_K_M.gguf" });
    await new Promise<void>((resolve) => {
      const stop = downloads.subscribe(run.run_id, (event) => {
        if (event.type === "progress" && event.downloaded_bytes > 256 * 1024) {
          queueMicrotask(() => stop());
          resolve();
        }
      });
    });
    expect((await downloads.cancel(run.run_id)).status).toBe("cancelled");
    await expect(downloads.cancel(run.run_id)).rejects.toMatchObject({ code: "conflict" });
    hub.setChunkDelay(0);
    downloads.resume(run.run_id);
    expect((await downloads.wait(run.run_id)).status).toBe("completed");
    const target = path.join(modelsDir, "acme", "slow", "slow-Q4_K_M.gguf");
    expect(await sha256(target)).toBe(await sha256(path.join(remote, "slow-Q4_K_M.gguf")));
    expect(hub.requests.filter((request) => request.range && /^bytes=[1-9]/.test(request.range)).length).toBe(
      1,
    );
  });

  it("one download manager at a time writes a .part: another (process) is refused, the first completes", async () => {
    const remote = await repoDir("hf-twice", { "twice-Q4_K_M.gguf": 1024 * 1024 });
    hub.addRepo({ id: "acme/twice", dir: remote });
    hub.setChunkDelay(20);
    // Two managers on one base folder: what two `perch pull`s without a server are.
    const first = setup();
    const second = setup();
    const running = await first.downloads.start({
      source: "hf",
      repo: "acme/twice",
      file: "twice-Q4_K_M.gguf",
    });
    await new Promise<void>((resolve) => {
      const stop = first.downloads.subscribe(running.run_id, (event) => {
        if (event.type === "progress" && event.downloaded_bytes > 0) {
          queueMicrotask(() => stop());
          resolve();
        }
      });
    });
    const other = await second.downloads.start({
      source: "hf",
      repo: "acme/twice",
      file: "twice-Q4_K_M.gguf",
    });
    const refused = await second.downloads.wait(other.run_id);
    expect(refused).toMatchObject({ status: "failed", error: { code: "conflict" } });
    hub.setChunkDelay(0);
    expect((await first.downloads.wait(running.run_id)).status).toBe("completed");
    const target = path.join(first.modelsDir, "acme", "twice", "twice-Q4_K_M.gguf");
    expect(await sha256(target)).toBe(await sha256(path.join(remote, "twice-Q4_K_M.gguf")));
  });

  it("picks a quant with all its shards, skips mmproj, lists the repo for the picker", async () => {
    const remote = await repoDir("hf-shards", {
      "Q4_K_M/model-Q4_K_M-00001-of-00002.gguf": 100,
      "Q4_K_M/model-Q4_K_M-00002-of-00002.gguf": 200,
      "model-Q8_0.gguf": 10,
      "mmproj-model-f16.gguf": 10,
      "README.md": "hi",
    });
    hub.addRepo({ id: "acme/split", dir: remote });
    const { downloads, catalog } = setup();
    const listing = await downloads.repoFiles("hf", "acme/split");
    expect(listing.ggufs.map((gguf) => [gguf.file, gguf.quant, gguf.files.length])).toEqual([
      ["model-Q8_0.gguf", "Q8_0", 1],
      ["Q4_K_M/model-Q4_K_M-00001-of-00002.gguf", "Q4_K_M", 2],
    ]);
    const run = await downloads.start({ source: "hf", repo: "acme/split", quant: "q4_k_m" });
    expect(run.files.map((file) => file.path)).toEqual([
      "Q4_K_M/model-Q4_K_M-00001-of-00002.gguf",
      "Q4_K_M/model-Q4_K_M-00002-of-00002.gguf",
    ]);
    expect((await downloads.wait(run.run_id)).status).toBe("completed");
    const entry = await catalog.get("acme/split/Q4_K_M/model-Q4_K_M");
    expect(entry.files).toHaveLength(2);
    await expect(downloads.start({ source: "hf", repo: "acme/split", quant: "Q2_K" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(downloads.start({ source: "hf", repo: "acme/nope", quant: "Q8_0" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(() => downloads.get("dl-unknown")).toThrow(/No download run/);
  });

  it("downloads from ModelScope behind the same interface and checks its updates", async () => {
    const remote = await repoDir("ms1", { "qwen-Q4_K_M.gguf": 300 * 1024 });
    const head = hub.addRepo({ id: "qwen/Qwen-GGUF", dir: remote });
    const { downloads, catalog, updates } = setup();
    hub.dropNextDownloadAfter(100 * 1024);
    const run = await downloads.start({ source: "modelscope", repo: "qwen/Qwen-GGUF", quant: "Q4_K_M" });
    expect((await downloads.wait(run.run_id)).status).toBe("failed");
    downloads.resume(run.run_id);
    expect((await downloads.wait(run.run_id)).status).toBe("completed");
    expect(
      hub.requests.some(
        (request) => request.path.startsWith("/api/v1/models/qwen/Qwen-GGUF/repo?") && request.range,
      ),
    ).toBe(true);
    expect(await catalog.get("qwen/Qwen-GGUF/qwen-Q4_K_M")).toMatchObject({
      source: "modelscope",
      repo: "qwen/Qwen-GGUF",
      revision: head,
    });
    expect(await updates.check("qwen/Qwen-GGUF/qwen-Q4_K_M")).toMatchObject({ update_status: "up_to_date" });
    hub.pushRevision("qwen/Qwen-GGUF", await repoDir("ms2", { "qwen-Q4_K_M.gguf": 300 * 1024 + 5 }));
    expect(await updates.check("qwen/Qwen-GGUF/qwen-Q4_K_M")).toMatchObject({
      update_status: "update_available",
    });
  });

  it("refuses to replace a model from one hub with a file of the same owner/name from the other", async () => {
    // The fake serves one repo to both clients (ModelScope's API and the Hub's), as two hubs with
    // a repo of the same name would: both land in <models>/acme/same-GGUF/.
    const remote = await repoDir("same1", { "same-Q8_0.gguf": 64 * 1024 });
    hub.addRepo({ id: "acme/same-GGUF", dir: remote });
    const { downloads, catalog, modelsDir } = setup();
    const first = await downloads.start({ source: "hf", repo: "acme/same-GGUF", quant: "Q8_0" });
    expect((await downloads.wait(first.run_id)).status).toBe("completed");
    const file = path.join(modelsDir, "acme", "same-GGUF", "same-Q8_0.gguf");
    const before = await sha256(file);
    // Was accepted: the file replaced in silence, the entry then saying source modelscope.
    await expect(
      downloads.start({ source: "modelscope", repo: "acme/same-GGUF", quant: "Q8_0" }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("already here, from Hugging Face"),
    });
    expect(await sha256(file)).toBe(before);
    expect(await catalog.get("acme/same-GGUF/same-Q8_0")).toMatchObject({ source: "hf" });
    // The same hub again is an update, as before.
    const again = await downloads.start({ source: "hf", repo: "acme/same-GGUF", quant: "Q8_0" });
    expect((await downloads.wait(again.run_id)).status).toBe("completed");
  });

  it("forgets a download's commit and content id once the file changes on disk; a missing model is never up to date", async () => {
    const remote = await repoDir("hf-replaced", { "tiny-Q8_0.gguf": 64 * 1024 });
    hub.addRepo({ id: "acme/tiny-GGUF", dir: remote });
    const { catalog, downloads, updates, modelsDir } = setup();
    const id = "acme/tiny-GGUF/tiny-Q8_0";
    const pull = async () => {
      const run = await downloads.start({ source: "hf", repo: "acme/tiny-GGUF", quant: "Q8_0" });
      expect((await downloads.wait(run.run_id)).status).toBe("completed");
    };
    await pull();
    const hubSha = await sha256(path.join(remote, "tiny-Q8_0.gguf"));
    expect(await catalog.get(id)).toMatchObject({ file_oid: hubSha, update_status: "up_to_date" });

    // Other bytes of another size, behind Perch's back.
    const file = path.join(modelsDir, "acme", "tiny-GGUF", "tiny-Q8_0.gguf");
    await fs.writeFile(file, tinyGgufBytes({ padding: 1000 }));
    await catalog.refresh();
    // Was: file_oid still the hub's sha (so /api/tags' digest and results' model_file lied).
    const replaced = await catalog.get(id);
    expect(replaced).toMatchObject({ source: "hf", repo: "acme/tiny-GGUF", revision: null, file_oid: null });
    expect(replaced.update_status).toBe("unknown");
    expect(ollamaDigest(replaced)).not.toBe(hubSha);
    // Was: up_to_date.
    const check = await updates.check(id);
    expect(check).toMatchObject({
      update_status: "unknown",
      error: expect.stringContaining("changed on disk"),
    });
    // A pull brings the hub's file back and records it again.
    await pull();
    expect(await sha256(file)).toBe(hubSha);
    expect(await catalog.get(id)).toMatchObject({ file_oid: hubSha, update_status: "up_to_date" });
    expect(await updates.check(id)).toMatchObject({ update_status: "up_to_date" });

    // Deleted behind Perch's back: was up_to_date.
    await fs.rm(file);
    await catalog.rescan();
    expect(await updates.check(id)).toMatchObject({
      update_status: "unknown",
      error: expect.stringContaining("missing"),
    });
  });

  it("keeps a download's commit when only the file's time changed and its bytes are still the hub's", async () => {
    const remote = await repoDir("hf-touched", { "tiny-Q8_0.gguf": 64 * 1024 });
    hub.addRepo({ id: "acme/touched-GGUF", dir: remote });
    const { catalog, downloads, updates, modelsDir } = setup();
    const id = "acme/touched-GGUF/tiny-Q8_0";
    const run = await downloads.start({ source: "hf", repo: "acme/touched-GGUF", quant: "Q8_0" });
    expect((await downloads.wait(run.run_id)).status).toBe("completed");
    const downloaded = await catalog.get(id);
    const file = path.join(modelsDir, "acme", "touched-GGUF", "tiny-Q8_0.gguf");

    // Touched (a backup restore, a copy without its times): was revision and file_oid gone for good.
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(file, later, later);
    await catalog.refresh();
    await catalog.verified();
    expect(await catalog.get(id)).toMatchObject({
      revision: downloaded.revision,
      file_oid: downloaded.file_oid,
      update_status: "up_to_date",
      update_error: null,
    });
    expect(await updates.check(id)).toMatchObject({ update_status: "up_to_date" });

    // Same size, other bytes, new time: the commit goes and stays gone.
    const bytes = await fs.readFile(file);
    bytes[bytes.length - 1] ^= 0xff;
    await fs.writeFile(file, bytes);
    const latest = new Date(Date.now() + 120_000);
    await fs.utimes(file, latest, latest);
    await catalog.refresh();
    await catalog.verified();
    expect(await catalog.get(id)).toMatchObject({ revision: null, file_oid: null, update_status: "unknown" });
  });

  it("records every shard's content id and finds an update that changed only a later shard", async () => {
    const shards = {
      "split-00001-of-00003.gguf": 1000,
      "split-00002-of-00003.gguf": 2000,
      "split-00003-of-00003.gguf": 3000,
    };
    hub.addRepo({ id: "acme/split-GGUF", dir: await repoDir("split1", shards) });
    const { catalog, downloads, updates } = setup();
    const run = await downloads.start({
      source: "hf",
      repo: "acme/split-GGUF",
      file: "split-00001-of-00003.gguf",
    });
    expect((await downloads.wait(run.run_id)).status).toBe("completed");
    const id = "acme/split-GGUF/split";
    const entry = await catalog.get(id);
    expect(Object.keys(entry.file_oids ?? {})).toEqual(Object.keys(shards));
    expect(await updates.check(id)).toMatchObject({ update_status: "up_to_date" });
    // A commit that changes the second shard only: was up_to_date (only the first was compared).
    const head = hub.pushRevision(
      "acme/split-GGUF",
      await repoDir("split2", { ...shards, "split-00002-of-00003.gguf": 2001 }),
    );
    expect(await updates.check(id)).toMatchObject({
      update_status: "update_available",
      remote_revision: head,
    });
  });

  it("a pull of an older revision is recorded as behind the head, not up to date", async () => {
    const old = hub.addRepo({
      id: "acme/multi-GGUF",
      dir: await repoDir("multi-dev", { "multi-Q8_0.gguf": 100 }),
    });
    const head = hub.pushRevision("acme/multi-GGUF", await repoDir("multi-main", { "multi-Q8_0.gguf": 101 }));
    const { catalog, downloads } = setup();
    const run = await downloads.start({
      source: "hf",
      repo: "acme/multi-GGUF",
      quant: "Q8_0",
      revision: old,
    });
    expect((await downloads.wait(run.run_id)).status).toBe("completed");
    // Was: up_to_date, remote_revision the pinned commit.
    expect(await catalog.get("acme/multi-GGUF/multi-Q8_0")).toMatchObject({
      revision: old,
      update_status: "update_available",
      remote_revision: head,
    });
    // A named revision that is the head is up to date.
    const again = await downloads.start({
      source: "hf",
      repo: "acme/multi-GGUF",
      quant: "Q8_0",
      revision: "main",
    });
    expect((await downloads.wait(again.run_id)).status).toBe("completed");
    expect(await catalog.get("acme/multi-GGUF/multi-Q8_0")).toMatchObject({
      revision: head,
      update_status: "up_to_date",
      remote_revision: head,
    });
  });

  it("tells its listeners of a download only when a file changed on disk", async () => {
    const remote = await repoDir("same-again", { "again-Q8_0.gguf": 1000 });
    hub.addRepo({ id: "acme/again-GGUF", dir: remote });
    const { downloads } = setup();
    const told: string[] = [];
    downloads.onModelDownloaded((modelId) => told.push(modelId));
    const pull = async () => {
      const run = await downloads.start({ source: "hf", repo: "acme/again-GGUF", quant: "Q8_0" });
      expect((await downloads.wait(run.run_id)).status).toBe("completed");
    };
    await pull();
    expect(told).toEqual(["acme/again-GGUF/again-Q8_0"]);
    // Nothing downloaded (the file is the hub's): was told again, and the core unloaded the model.
    await pull();
    expect(told).toHaveLength(1);
    hub.pushRevision("acme/again-GGUF", await repoDir("same-again-2", { "again-Q8_0.gguf": 1001 }));
    await pull();
    expect(told).toHaveLength(2);
  });

  it("fails a pull of a file that is not a readable GGUF with invalid_model_file", async () => {
    const remote = path.join(base, "remote", "notgguf");
    await fs.mkdir(remote, { recursive: true });
    await fs.writeFile(path.join(remote, "bad.Q8_0.gguf"), Buffer.alloc(4096, 7));
    hub.addRepo({ id: "acme/notgguf-GGUF", dir: remote });
    const { downloads, catalog } = setup();
    const run = await downloads.start({ source: "hf", repo: "acme/notgguf-GGUF", quant: "Q8_0" });
    // Was: completed, and the CLI printed "Pulled ... Try it: perch run ...".
    const done = await downloads.wait(run.run_id);
    expect(done).toMatchObject({ status: "failed", error: { code: "invalid_model_file" } });
    expect(done.error?.message).toContain("not a readable GGUF");
    expect((await catalog.get("acme/notgguf-GGUF/bad.Q8_0")).gguf_error).not.toBeNull();
  });

  it("checks all models: a failing remote is an error for that model only, local stays not_applicable", async () => {
    hub.addRepo({ id: "acme/a", dir: await repoDir("a", { "a-Q8_0.gguf": 10 }) });
    hub.addRepo({ id: "acme/b", dir: await repoDir("b", { "b-Q8_0.gguf": 10 }) });
    const { downloads, updates, modelsDir, catalog } = setup();
    for (const repo of ["acme/a", "acme/b"]) {
      const run = await downloads.start({ source: "hf", repo, quant: "Q8_0" });
      expect((await downloads.wait(run.run_id)).status).toBe("completed");
    }
    await fs.writeFile(path.join(modelsDir, "local.gguf"), tinyGgufBytes());
    await catalog.rescan();
    hub.fail("acme/b", 500);
    const results = await updates.checkAll();
    expect(results.map((result) => [result.model_id, result.update_status])).toEqual([
      ["acme/a/a-Q8_0", "up_to_date"],
      ["acme/b/b-Q8_0", "error"],
      ["local", "not_applicable"],
    ]);
    expect(results[1].error).toContain("500");
    hub.fail("acme/b", null);
    expect(await updates.check("acme/b/b-Q8_0")).toMatchObject({ update_status: "up_to_date", error: null });
  });
});
