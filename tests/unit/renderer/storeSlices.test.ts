import { describe, expect, it } from "vitest";
import { PerchClientError } from "../../../src-renderer/client/PerchClientError.js";
import { accuracyResult, modelRow, performanceResult } from "./fixtures.js";
import { storeWith } from "./fakeClient.js";

const listing = (models = [modelRow()]) => ({ models, models_dirs: ["/base/models"] });

describe("dashboard store", () => {
  it("loads models and turns a failure into visible state, not a rejection", async () => {
    const ok = storeWith({ listModels: () => listing() });
    await ok.store.getState().loadModels();
    expect(ok.store.getState()).toMatchObject({
      modelsStatus: "ready",
      modelsError: null,
      modelsDirs: ["/base/models"],
    });
    expect(ok.store.getState().models).toHaveLength(1);

    const failing = storeWith({
      listModels: () => {
        throw new PerchClientError("storage_error", "disk on fire", { status: 500 });
      },
    });
    await expect(failing.store.getState().loadModels()).resolves.toBeUndefined();
    expect(failing.store.getState()).toMatchObject({
      modelsStatus: "error",
      modelsError: { code: "storage_error", message: "disk on fire" },
    });
  });

  it("asks for the API key when the server answers 401", async () => {
    const { store } = storeWith({
      listModels: () => {
        throw new PerchClientError("unauthorized", "Missing or invalid API key", { status: 401 });
      },
    });
    await store.getState().loadModels();
    expect(store.getState().apiKeyNeeded).toBe(true);
  });

  it("header actions report their outcome and reload the rows", async () => {
    const { store, calls } = storeWith({
      listModels: () => listing(),
      rescan: () => ({ added: ["a"], missing: [], total: 2, models_dirs: [] }),
      reload: () => {
        throw new PerchClientError("conflict", "busy", { status: 409 });
      },
    });
    await store.getState().rescanDisk();
    expect(store.getState().toasts.at(-1)).toMatchObject({
      kind: "success",
      key: "models.notice.rescanned",
      values: { added: 1, total: 2 },
    });
    expect(calls.map((call) => call.name)).toEqual(["rescan", "listModels"]);
    await store.getState().reloadRuntime();
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: "error", message: "busy" });
    expect(store.getState().headerBusy).toBeNull();
  });

  it("reads the open conversation again when the server is back after being unreachable", async () => {
    let up = false;
    const conversation = {
      version: 1 as const,
      id: "c1",
      title: "Open one",
      created_at: "2026-03-01T10:00:00.000Z",
      updated_at: "2026-03-01T10:00:00.000Z",
      model_id: "m",
      system_prompt: "",
      sampling: {},
      thinking: null,
      json_schema: null,
      messages: [],
    };
    const { store, calls } = storeWith({
      stats: () => {
        if (!up) throw new PerchClientError("network_error", "Failed to fetch");
        return {
          models: [],
          loadedModels: [],
          totals: { activeSequences: 0, queueDepth: 0, generatedTokensLastMinute: 0 },
        };
      },
      getConversation: () => ({ ...conversation, running_reply: null }),
    });
    store.setState({
      conversation,
      chatError: { code: "network_error", message: "Failed to fetch", status: 0, param: null, fields: [] },
    });
    await store.getState().pollStats();
    expect(calls.filter((call) => call.name === "getConversation")).toHaveLength(0);
    up = true;
    await store.getState().pollStats();
    await expect.poll(() => store.getState().chatError).toBeNull();
    expect(calls.filter((call) => call.name === "getConversation")).toHaveLength(1);
  });

  it("on every page (the models poll, not only the server page's stats): back after a restart, the chat notice goes and the conversation is read again", async () => {
    let up = false;
    const at = "2026-03-01T10:00:00.000Z";
    const conversation = {
      version: 1 as const,
      id: "c1",
      title: "Open one",
      created_at: at,
      updated_at: at,
      model_id: "m",
      system_prompt: "",
      sampling: {},
      thinking: null,
      json_schema: null,
      messages: [{ id: "u1", role: "user" as const, content: "count to 1000", created_at: at }],
    };
    const saved = {
      ...conversation,
      messages: [
        ...conversation.messages,
        {
          id: "a1",
          role: "assistant" as const,
          content: "1, 2",
          created_at: at,
          finish_reason: "cancelled" as const,
        },
      ],
    };
    const { store, calls } = storeWith({
      listModels: () => {
        if (!up) throw new PerchClientError("network_error", "Failed to fetch");
        return { models: [], models_dirs: ["/base/models"] };
      },
      listConversations: () => ({ conversations: [] }),
      getConversation: () => ({ ...saved, running_reply: null }),
    });
    store.setState({
      conversation,
      chatError: { code: "network_error", message: "Failed to fetch", status: 0, param: null, fields: [] },
    });
    await store.getState().loadModels();
    expect(store.getState().modelsError?.code).toBe("network_error");
    expect(calls.filter((call) => call.name === "getConversation")).toHaveLength(0);
    up = true;
    await store.getState().loadModels();
    await expect.poll(() => store.getState().conversation?.messages.length).toBe(2);
    expect(store.getState().chatError).toBeNull();
  });

  it("a retried upload says how it went", async () => {
    let answer: { state: string; at: string; error?: string } = {
      state: "failed",
      at: "2026-03-01T10:00:00.000Z",
      error: "fetch failed: connect ECONNREFUSED 127.0.0.1:4000",
    };
    const { store } = storeWith({
      retryPerformanceUpload: () => ({ result_id: "perf-1", upload: answer }),
      listPerformanceResults: () => ({ results: [] }),
      listAccuracyResults: () => ({ results: [] }),
    });
    await store.getState().retryUpload("perf-1");
    expect(store.getState().toasts.at(-1)).toMatchObject({
      kind: "error",
      key: "history.notice.uploadFailed",
      message: "fetch failed: connect ECONNREFUSED 127.0.0.1:4000",
    });
    answer = { state: "uploaded", at: "2026-03-01T10:00:00.000Z" };
    await store.getState().retryUpload("perf-1");
    expect(store.getState().toasts.at(-1)).toMatchObject({
      kind: "success",
      key: "history.notice.upload.uploaded",
    });
  });

  it("an update check that could not reach its hub is an error, not 'no updates'", async () => {
    const result = (model_id: string, update_status: string, error: string | null = null) => ({
      model_id,
      update_status,
      revision: null,
      remote_revision: null,
      last_checked_at: null,
      error,
    });
    const { store } = storeWith({
      listModels: () => listing(),
      checkModelUpdates: () => ({
        results: [
          result("local", "not_applicable"),
          result("a", "error", "fetch failed (ENOTFOUND huggingface.co)"),
          result("b", "up_to_date"),
        ],
      }),
    });
    await store.getState().checkRemoteUpdates();
    expect(store.getState().toasts.at(-1)).toMatchObject({
      kind: "error",
      key: "models.notice.checkFailed",
      values: { failed: 1, checked: 2, available: 0 },
      message: "fetch failed (ENOTFOUND huggingface.co)",
    });
  });

  it("saving settings answers the field errors instead of throwing", async () => {
    const { store } = storeWith({
      listModels: () => listing(),
      putModelSettings: () => {
        throw new PerchClientError("invalid_request", "Invalid body at 'sampling.temperature'", {
          status: 400,
          param: "sampling.temperature",
          details: [{ path: ["sampling", "temperature"], message: "Too big: expected number to be <=2" }],
        });
      },
    });
    const error = await store.getState().saveModelSettings("m", { sampling: { temperature: 9 } });
    expect(error?.fields).toEqual([
      { path: "sampling.temperature", message: "Too big: expected number to be <=2" },
    ]);
    expect(store.getState().modelBusy).toEqual({});
  });

  it("deleting a result reloads history and the rows, so the chips follow", async () => {
    let results = [accuracyResult(), accuracyResult({ result_id: "acc-2", benchmark: "gsm8k" })];
    const { store, calls } = storeWith({
      listModels: () => listing(),
      listAccuracyResults: () => ({ results }),
      listPerformanceResults: () => ({ results: [performanceResult()] }),
      deleteAccuracyResult: (input) => {
        const id = (input as { params: { result_id: string } }).params.result_id;
        results = results.filter((result) => result.result_id !== id);
        return { deleted: true, result_id: id };
      },
    });
    await store.getState().loadHistory();
    expect(store.getState().accuracyResults).toHaveLength(2);
    await store.getState().deleteAccuracyResult("acc-2");
    expect(store.getState().accuracyResults.map((result) => result.result_id)).toEqual(["acc-1"]);
    expect(calls.map((call) => call.name)).toContain("listModels");
    expect(store.getState().deletingResults).toEqual([]);
  });

  it("one failing history list does not hide the other", async () => {
    const { store } = storeWith({
      listAccuracyResults: () => {
        throw new PerchClientError("storage_error", "corrupt", { status: 500 });
      },
      listPerformanceResults: () => ({ results: [performanceResult()] }),
    });
    await store.getState().loadHistory();
    expect(store.getState().performanceResults).toHaveLength(1);
    expect(store.getState().accuracyHistoryError?.message).toBe("corrupt");
    expect(store.getState().historyStatus).toBe("ready");
  });

  it("the upload choice starts unchecked and is remembered", async () => {
    const { store, storage, calls } = storeWith({
      getSettings: () => {
        throw new PerchClientError("not_found", "no settings route", { status: 404 });
      },
      putSettings: () => ({}),
    });
    expect(store.getState().uploadChoice).toBe(false);
    await store.getState().setUploadChoice(true);
    expect(storage.data.get("perch.uploadToCommunity")).toBe("true");
    expect(calls.at(-1)).toEqual({
      name: "putSettings",
      input: { body: { community_upload_enabled: true } },
    });

    const again = storeWith({});
    again.storage.setItem("perch.uploadToCommunity", "true");
    await again.store.getState().loadUploadChoice();
    expect(again.store.getState().uploadChoice).toBe(true);
  });

  it("starts an accuracy run, follows its stream and refreshes history when it ends", async () => {
    const { store, subscriptions, calls } = storeWith({
      queueAccuracyRun: () => ({ run_id: "run-1" }),
      listAccuracyQueue: () => ({ running: null, queued: [], finished: [] }),
      activePerformanceRun: () => ({ active: null }),
      listAccuracyResults: () => ({ results: [accuracyResult()] }),
      listPerformanceResults: () => ({ results: [] }),
      listModels: () => listing(),
    });
    await store.getState().startAccuracyRun({
      modelId: "m",
      benchmarks: ["humaneval"],
      sampleSize: 5,
      batchSize: 4,
      samplingProfile: "deterministic",
      thinking: "auto",
    });
    expect(calls[0]).toEqual({
      name: "queueAccuracyRun",
      input: {
        body: {
          model_id: "m",
          benchmarks: ["humaneval"],
          sample_size: 5,
          batch_size: 4,
          sampling_profile: "deterministic",
          thinking: "auto",
        },
      },
    });
    expect(subscriptions).toHaveLength(1);
    const send = subscriptions[0].handlers.onEvent;
    const base = { run_id: "run-1", at: "2026-03-01T10:00:00.000Z" };
    send({ ...base, seq: 0, type: "run_started" });
    send({ ...base, seq: 1, type: "benchmark_started", benchmark: "humaneval", total: 5 });
    send({
      ...base,
      seq: 2,
      type: "question_done",
      benchmark: "humaneval",
      completed: 2,
      total: 5,
      correct_count: 1,
      running_accuracy: 0.5,
      eta_s: 30,
    });
    expect(store.getState().runs["run-1"]).toMatchObject({
      status: "running",
      completed: 2,
      total: 5,
      accuracy: 0.5,
      etaSeconds: 30,
    });
    send({ ...base, seq: 3, type: "run_finished", state: "completed", error: null });
    expect(store.getState().runs["run-1"].status).toBe("completed");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.map((call) => call.name)).toContain("listAccuracyResults");
  });

  it("a refused run start is shown on its form", async () => {
    const { store } = storeWith({
      startPerformanceRun: () => {
        throw new PerchClientError("conflict", "A performance run is already running.", { status: 409 });
      },
    });
    await store
      .getState()
      .startPerformanceRun({ modelId: "m", promptLengths: [128], batchSizes: [], upload: false });
    expect(store.getState().runError).toMatchObject({ kind: "performance", error: { code: "conflict" } });
    expect(store.getState().startingRun).toBeNull();
  });
});
