import { describe, expect, it } from "vitest";
import { PerchClientError } from "../../../src-renderer/client/PerchClientError.js";
import { storeWith } from "./fakeClient.js";

const quietServer = {
  listAccuracyQueue: () => ({ running: null, queued: [], finished: [] }),
  activePerformanceRun: () => ({ active: null }),
  listAccuracyResults: () => ({ results: [] }),
  listPerformanceResults: () => ({ results: [] }),
  listModels: () => ({ models: [], models_dirs: [] }),
};
const base = { run_id: "run-1", at: "2026-03-01T10:00:00.000Z" };

describe("watchRun", () => {
  it("a dismissed run stops streaming: its subscription is closed and later events change nothing", () => {
    const { store, subscriptions } = storeWith(quietServer);
    store.getState().watchRun("accuracy", "run-1", "m");
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0].closed).toBe(false);

    store.getState().dismissRun("run-1");
    expect(subscriptions[0].closed).toBe(true);
    subscriptions[0].handlers.onEvent({ ...base, seq: 0, type: "run_started" });
    expect(store.getState().runs["run-1"]).toBeUndefined();
    expect(store.getState().runOrder).toEqual([]);
  });

  it("a finished run closes its stream, and watching it again subscribes anew", async () => {
    const { store, subscriptions } = storeWith(quietServer);
    store.getState().watchRun("performance", "run-1", "m");
    store.getState().watchRun("performance", "run-1", "m");
    expect(subscriptions).toHaveLength(1);
    subscriptions[0].handlers.onEnd!();
    expect(subscriptions[0].closed).toBe(true);
    expect(store.getState().runs["run-1"].status).toBe("completed");
    await new Promise((resolve) => setTimeout(resolve, 0));

    store.getState().dismissRun("run-1");
    store.getState().watchRun("performance", "run-1", "m");
    expect(subscriptions).toHaveLength(2);
  });

  it("a run whose stream breaks off (Perch stopped mid-run) reads interrupted, not failed", () => {
    const { store, subscriptions } = storeWith(quietServer);
    store.getState().watchRun("accuracy", "run-1", "m");
    subscriptions[0].handlers.onEvent({ ...base, seq: 0, type: "run_started" });
    subscriptions[0].handlers.onError!(new PerchClientError("network_error", "network error"));
    expect(store.getState().runs["run-1"].status).toBe("interrupted");

    store.getState().watchRun("performance", "run-2", "m");
    subscriptions[1].handlers.onError!(new PerchClientError("model_load_failed", "not a GGUF"));
    expect(store.getState().runs["run-2"].status).toBe("failed");
  });
});
