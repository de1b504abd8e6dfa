import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccuracyResult } from "../../../src-shared/contracts/accuracy.js";
import type { DownloadRun } from "../../../src-shared/contracts/catalog.js";
import type { EvalRunSummary } from "../../../src-shared/contracts/evalQueue.js";
import type { ModelRow } from "../../../src-shared/contracts/models.js";
import type { PerformanceResult } from "../../../src-shared/contracts/performance.js";
import { createCore, type Core } from "../../../src-main/core/createCore.js";
import { startServer } from "../../../src-main/server/startServer.js";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import { fixtureDataset } from "../../helpers/fixtureDatasets.js";
import { ensureTestModels } from "../../helpers/testModels.js";

const repo = "acme/tiny-GGUF";
const modelId = `${repo}/tiny-Q8_0`;
let base: string;
let hub: FakeHub;
let core: Core;
let url: string;
let close: () => Promise<unknown>;

async function api<T>(route: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(`${url}${route}`, {
    method: init?.method ?? "GET",
    ...(init?.body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function until<T>(what: string, poll: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await poll();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function pull(): Promise<void> {
  const run = await api<DownloadRun>("/admin/api/downloads", {
    method: "POST",
    body: { source: "hf", repo, file: "tiny-Q8_0.gguf" },
  });
  const done = await until("the download", async () => {
    const now = await api<DownloadRun>(`/admin/api/downloads/${run.run_id}`);
    return now.status === "running" ? undefined : now;
  });
  expect(done).toMatchObject({ status: "completed", model_id: modelId });
}

const row = () => api<ModelRow>(`/admin/api/models/${encodeURIComponent(modelId)}`);

beforeAll(async () => {
  const { main } = await ensureTestModels();
  base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-earlier-file-"));
  const remote = path.join(base, "remote-1");
  fs.mkdirSync(remote);
  fs.copyFileSync(main, path.join(remote, "tiny-Q8_0.gguf"));
  hub = await startFakeHub();
  hub.addRepo({ id: repo, dir: remote });
  core = await createCore(
    {
      basePath: path.join(base, "home"),
      port: 0,
      logLevel: "warn",
      threads: 1,
    },
    {
      env: { HF_ENDPOINT: hub.url },
      evalDatasets: { file: fixtureDataset("gsm8k-test.jsonl") },
    },
  );
  const server = await startServer(core, { validateResponses: true });
  url = server.url;
  close = async () => {
    await server.app.close();
    await core.close();
  };
});

afterAll(async () => {
  await close?.();
  await hub?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

describe("results of an earlier file of a model", () => {
  it("record the file they measured, and the model's row marks them once an update replaced it", async () => {
    await pull();
    const first = await row();
    expect(first.file_oid).toMatch(/^[0-9a-f]{64}$/);
    const measuredFile = { revision: first.revision, file_oid: first.file_oid, size_bytes: first.size_bytes };

    // A short speed run and a two-question GSM8K run of the downloaded file.
    const perf = await api<{ run_id: string }>("/admin/api/bench/start", {
      method: "POST",
      body: { model_id: modelId, prompt_lengths: [128], batch_sizes: [], generated_tokens: 8 },
    });
    const speed = await until("the speed result", async () => {
      const { results } = await api<{ results: PerformanceResult[] }>(
        `/admin/api/bench/results?model_id=${encodeURIComponent(modelId)}`,
      );
      return results.find((result) => result.run_id === perf.run_id);
    });
    expect(speed.model_file).toEqual(measuredFile);
    const queued = await api<{ run_id: string }>("/admin/api/bench/accuracy/queue", {
      method: "POST",
      body: { model_id: modelId, benchmarks: ["gsm8k"], sample_size: 2, batch_size: 2, thinking: "off" },
    });
    const finished = await until("the accuracy run", async () => {
      const { finished: runs } = await api<{ finished: EvalRunSummary[] }>("/admin/api/bench/accuracy/queue");
      return runs.find((run) => run.run_id === queued.run_id);
    });
    expect(finished.state).toBe("completed");
    const accuracy = await api<AccuracyResult>(`/admin/api/bench/accuracy/results/${finished.result_ids[0]}`);
    expect(accuracy.model_file).toEqual(measuredFile);

    const before = await row();
    expect(before.performance).toMatchObject({ result_id: speed.result_id, earlier_model_file: false });
    expect(before.accuracy.best_by_benchmark.gsm8k).toMatchObject({
      result_id: accuracy.result_id,
      earlier_model_file: false,
    });
    expect(before.accuracy.latest?.earlier_model_file).toBe(false);

    // The hub gets a new commit that changes the file; the user pulls the update.
    const remote = path.join(base, "remote-2");
    fs.mkdirSync(remote);
    fs.copyFileSync(path.join(base, "remote-1", "tiny-Q8_0.gguf"), path.join(remote, "tiny-Q8_0.gguf"));
    fs.appendFileSync(path.join(remote, "tiny-Q8_0.gguf"), Buffer.alloc(32));
    const head = hub.pushRevision(repo, remote);
    await pull();

    const after = await row();
    expect(after.revision).toBe(head);
    expect(after.file_oid).not.toBe(first.file_oid);
    expect(after.performance).toMatchObject({ result_id: speed.result_id, earlier_model_file: true });
    expect(after.accuracy.best_by_benchmark.gsm8k).toMatchObject({
      result_id: accuracy.result_id,
      earlier_model_file: true,
    });
    expect(after.accuracy.best?.earlier_model_file).toBe(true);
    // The listing says the same as the single row.
    const { models } = await api<{ models: ModelRow[] }>("/admin/api/models");
    expect(models.find((model) => model.id === modelId)?.performance?.earlier_model_file).toBe(true);
  });
});
