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
import { createCore } from "../../../src-main/core/createCore.js";
import { ModelSettingsStore } from "../../../src-main/settings/ModelSettingsStore.js";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import { tinyGgufBytes } from "../../helpers/writeTinyGguf.js";

/*
 * Pulls that meet what an earlier pull or process left: a file whose record is lost, a lock of a
 * process that stopped, a download another process holds, and quant labels with hyphens.
 */
let base: string;
let hub: FakeHub;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-pull-recovery-"));
  hub = await startFakeHub();
});
afterEach(async () => {
  await hub.close();
  await fs.rm(base, { recursive: true, force: true });
});

async function repoDir(name: string, files: Record<string, number>): Promise<string> {
  const dir = path.join(base, "remote", name);
  await fs.mkdir(dir, { recursive: true });
  for (const [file, padding] of Object.entries(files))
    await fs.writeFile(path.join(dir, file), tinyGgufBytes({ padding }));
  return dir;
}

/** A download manager over the base folder, as one process (`perch pull` without a server) has. */
function manager() {
  const modelsDir = path.join(base, "models");
  const settings = new ModelSettingsStore({ basePath: base });
  const catalog = new ModelCatalog({ basePath: base, modelsDirs: () => [modelsDir], settings });
  const downloads = new DownloadManager({
    catalog,
    downloaders: {
      hf: new HuggingFaceDownloader({ endpoint: () => hub.url, accessToken: undefined }),
      modelscope: new ModelScopeDownloader({ endpoint: () => hub.url }),
    },
    targetDir: () => modelsDir,
    progressIntervalMs: 0,
  });
  return { modelsDir, catalog, downloads };
}

const sha256 = async (file: string) =>
  crypto
    .createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex");

const fileDownloads = () => hub.requests.filter((request) => request.path.includes("/resolve/")).length;

function eventsOf(downloads: DownloadManager, runId: string): DownloadEvent[] {
  const events: DownloadEvent[] = [];
  downloads.subscribe(runId, (event) => events.push(event))();
  return events;
}

/** Resolves once the run has written some bytes. */
function firstBytes(downloads: DownloadManager, runId: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = downloads.subscribe(runId, (event) => {
      if (event.type === "progress" && event.downloaded_bytes > 0) {
        queueMicrotask(() => stop());
        resolve();
      }
    });
  });
}

describe("pulls over what is already on disk", () => {
  it("a model of unknown source (its record lost) is adopted when its sha256 is the hub's, replaced when not", async () => {
    const remote = await repoDir("tiny", { "tiny.Q8_0.gguf": 128 * 1024 });
    hub.addRepo({ id: "acme/tiny-GGUF", dir: remote });
    const first = manager();
    const run = await first.downloads.start({ source: "hf", repo: "acme/tiny-GGUF", quant: "Q8_0" });
    expect((await first.downloads.wait(run.run_id)).status).toBe("completed");
    const target = path.join(first.modelsDir, "acme", "tiny-GGUF", "tiny.Q8_0.gguf");

    // The catalog file truncated: moved aside, the model found again with source unknown.
    await fs.writeFile(path.join(base, "model_catalog.json"), '{"entr');
    const second = manager();
    expect(await second.catalog.get("acme/tiny-GGUF/tiny.Q8_0")).toMatchObject({ source: "unknown" });
    const before = fileDownloads();
    // Was refused: "already here, from another source; … Delete it first (conflict)".
    const again = await second.downloads.start({ source: "hf", repo: "acme/tiny-GGUF", quant: "Q8_0" });
    expect((await second.downloads.wait(again.run_id)).status).toBe("completed");
    expect(fileDownloads()).toBe(before);
    expect(await second.catalog.get("acme/tiny-GGUF/tiny.Q8_0")).toMatchObject({
      source: "hf",
      repo: "acme/tiny-GGUF",
    });

    // A file the user placed in the owner/repo/file.gguf layout, other bytes: the pull replaces it.
    await fs.mkdir(path.join(first.modelsDir, "acme", "placed-GGUF"), { recursive: true });
    const placed = path.join(first.modelsDir, "acme", "placed-GGUF", "tiny.Q8_0.gguf");
    await fs.writeFile(placed, tinyGgufBytes({ padding: 10 }));
    hub.addRepo({ id: "acme/placed-GGUF", dir: remote });
    const third = manager();
    expect(await third.catalog.get("acme/placed-GGUF/tiny.Q8_0")).toMatchObject({ source: "unknown" });
    const replaced = await third.downloads.start({ source: "hf", repo: "acme/placed-GGUF", quant: "Q8_0" });
    expect((await third.downloads.wait(replaced.run_id)).status).toBe("completed");
    expect(await sha256(placed)).toBe(await sha256(path.join(remote, "tiny.Q8_0.gguf")));
    expect(await sha256(target)).toBe(await sha256(path.join(remote, "tiny.Q8_0.gguf")));

    // A real clash of hubs stays refused.
    await expect(
      third.downloads.start({ source: "modelscope", repo: "acme/placed-GGUF", quant: "Q8_0" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("pulls a quant whose label has a hyphen (Unsloth's UD-Q4_K_XL)", async () => {
    hub.addRepo({
      id: "acme/ud-GGUF",
      dir: await repoDir("ud", { "model-UD-Q4_K_XL.gguf": 1024, "model-Q8_0.gguf": 1024 }),
    });
    const { downloads } = manager();
    const listing = await downloads.repoFiles("hf", "acme/ud-GGUF");
    expect(listing.ggufs.map((gguf) => gguf.quant)).toEqual(["Q8_0", "UD-Q4_K_XL"]);
    const run = await downloads.start({ source: "hf", repo: "acme/ud-GGUF", quant: "ud-q4_k_xl" });
    expect(run.model_id).toBe("acme/ud-GGUF/model-UD-Q4_K_XL");
    expect((await downloads.wait(run.run_id)).status).toBe("completed");
  });
});

describe("download locks", () => {
  it("core.close() cancels a running download and releases its lock: the next pull starts at once", async () => {
    hub.addRepo({ id: "acme/slow-GGUF", dir: await repoDir("slow", { "slow.Q8_0.gguf": 1024 * 1024 }) });
    hub.setChunkDelay(50);
    const core = await createCore(
      { basePath: base, modelsDirs: [path.join(base, "models")] },
      { env: { HF_ENDPOINT: hub.url } },
    );
    const run = await core.downloads.start({ source: "hf", repo: "acme/slow-GGUF", quant: "Q8_0" });
    await firstBytes(core.downloads, run.run_id);
    await core.close();
    expect(core.downloads.get(run.run_id).status).toBe("cancelled");
    const target = path.join(base, "models", "acme", "slow-GGUF", "slow.Q8_0.gguf");
    await expect(fs.access(`${target}.part.lock`)).rejects.toThrow();

    // Was "being downloaded by another Perch process" for up to 10 s.
    hub.setChunkDelay(0);
    const next = manager();
    const resumed = await next.downloads.start({ source: "hf", repo: "acme/slow-GGUF", quant: "Q8_0" });
    expect((await next.downloads.wait(resumed.run_id)).status).toBe("completed");
    expect(eventsOf(next.downloads, resumed.run_id)[0]).toMatchObject({
      type: "started",
      resumed_from_bytes: expect.any(Number) as number,
    });
    expect(
      (eventsOf(next.downloads, resumed.run_id)[0] as { resumed_from_bytes: number }).resumed_from_bytes,
    ).toBeGreaterThan(0);
  });

  it("the loser of a race for a download says nothing of the bytes on disk (they are the winner's)", async () => {
    hub.addRepo({ id: "acme/race-GGUF", dir: await repoDir("race", { "race.Q8_0.gguf": 1024 * 1024 }) });
    hub.setChunkDelay(20);
    const winner = manager();
    const loser = manager();
    const running = await winner.downloads.start({ source: "hf", repo: "acme/race-GGUF", quant: "Q8_0" });
    await firstBytes(winner.downloads, running.run_id);
    const refused = await loser.downloads.start({ source: "hf", repo: "acme/race-GGUF", quant: "Q8_0" });
    expect(await loser.downloads.wait(refused.run_id)).toMatchObject({
      status: "failed",
      error: { code: "conflict" },
    });
    // Was: started (with resumed_from_bytes: the winner's part) then failed.
    expect(eventsOf(loser.downloads, refused.run_id).map((event) => event.type)).toEqual(["failed"]);
    hub.setChunkDelay(0);
    expect((await winner.downloads.wait(running.run_id)).status).toBe("completed");
  });
});
