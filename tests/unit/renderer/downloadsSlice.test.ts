import { describe, expect, it } from "vitest";
import { storeWith } from "./fakeClient.js";

const run = (overrides: Record<string, unknown> = {}) => ({
  run_id: "dl-1",
  source: "hf",
  repo: "owner/repo",
  revision: "main",
  model_id: "owner/repo/model-Q4_K_M",
  files: [],
  status: "running",
  downloaded_bytes: 0,
  total_bytes: 1000,
  error: null,
  created_at: "2026-03-01T10:00:00.000Z",
  updated_at: "2026-03-01T10:00:00.000Z",
  ...overrides,
});
const base = { run_id: "dl-1", at: "2026-03-01T10:00:01.000Z" };

describe("downloads slice", () => {
  it("follows a started download's stream once and reloads the models when it completes", async () => {
    const { store, subscriptions, calls } = storeWith({
      startDownload: () => run(),
      listDownloads: () => ({ runs: [run(), run({ run_id: "dl-0", status: "failed" })] }),
      listModels: () => ({ models: [], models_dirs: [] }),
    });
    await store.getState().startDownload({ source: "hf", repo: "owner/repo", file: "model-Q4_K_M.gguf" });
    await store.getState().loadDownloads();
    expect(subscriptions).toHaveLength(1);
    expect(store.getState().downloads.map((view) => view.runId)).toEqual(["dl-1", "dl-0"]);

    const send = subscriptions[0].handlers.onEvent;
    send({
      ...base,
      seq: 0,
      type: "progress",
      file: "m.gguf",
      downloaded_bytes: 400,
      total_bytes: 1000,
      bytes_per_second: 50,
    });
    expect(store.getState().downloads[0]).toMatchObject({ downloadedBytes: 400, bytesPerSecond: 50 });
    send({ ...base, seq: 1, type: "completed", model_id: "owner/repo/model-Q4_K_M" });
    expect(store.getState().downloads[0]).toMatchObject({ status: "completed", downloadedBytes: 1000 });
    expect(calls.map((call) => call.name)).toContain("listModels");
  });

  it("a refused repository listing becomes state, not a rejection", async () => {
    const { store } = storeWith({});
    await store.getState().browseRepo("hf", "owner/missing");
    expect(store.getState().repoFiles).toMatchObject({ status: "error", error: { code: "not_found" } });
  });
});
