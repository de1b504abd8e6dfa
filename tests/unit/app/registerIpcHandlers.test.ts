import { describe, expect, it, vi } from "vitest";
import {
  ipcChannels,
  type IpcResult,
  type IpcStreamMessage,
} from "../../../src-shared/contracts/ipcBridge.js";
import { AppPreferencesStore } from "../../../src-main/app/AppPreferencesStore.js";
import { createSenderCheck } from "../../../src-main/app/createSenderCheck.js";
import type { InjectRequest, InjectTarget } from "../../../src-main/app/InjectTarget.js";
import {
  registerIpcHandlers,
  type IpcEventLike,
  type IpcMainLike,
} from "../../../src-main/app/registerIpcHandlers.js";

const pageUrl = "file:///Applications/Perch.app/Contents/Resources/app/dist/renderer/index.html";
const dashboardId = 7;

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    on: (channel, listener) => void handlers.set(channel, listener),
  };
  return { ipcMain, handlers };
}

function event(options: { id?: number; url?: string | null } = {}) {
  const sent: IpcStreamMessage[] = [];
  const destroyed: (() => void)[] = [];
  const value: IpcEventLike = {
    sender: {
      id: options.id ?? dashboardId,
      send: (_channel, message) => void sent.push(message),
      once: (_event, listener) => void destroyed.push(listener),
    },
    senderFrame: options.url === null ? null : { url: options.url ?? `${pageUrl}#/models` },
  };
  return { event: value, sent, destroy: () => destroyed.forEach((listener) => listener()) };
}

function setup(server: Partial<InjectTarget> = {}) {
  const requests: InjectRequest[] = [];
  const target: InjectTarget = {
    request: async (request) => {
      requests.push(request);
      return { statusCode: 200, body: JSON.stringify({ status: "ok", warnings: [] }) };
    },
    stream: async () => ({ statusCode: 200, body: (async function* () {})() }),
    ...server,
  };
  const backend = { store: {} as Record<string, unknown> };
  const preferences = new AppPreferencesStore(backend);
  const { ipcMain, handlers } = fakeIpcMain();
  registerIpcHandlers(ipcMain, {
    isTrustedSender: createSenderCheck({ dashboardWebContentsId: () => dashboardId, pageUrl }),
    server: target,
    preferences,
  });
  const invoke = (channel: string, from: IpcEventLike, ...args: unknown[]) =>
    Promise.resolve(handlers.get(channel)?.(from, ...args)) as Promise<IpcResult>;
  return { handlers, requests, invoke, backend };
}

describe("IPC handlers", () => {
  it("serves a valid request through the in-process server", async () => {
    const { invoke, requests } = setup();
    const result = await invoke(ipcChannels.request, event().event, "health", {});
    expect(result).toEqual({ ok: true, status: 200, data: { status: "ok", warnings: [] } });
    expect(requests).toEqual([{ method: "GET", url: "/admin/api/health", payload: undefined }]);
  });

  it("rejects other windows, other pages and frames without a URL", async () => {
    const { invoke, requests } = setup();
    for (const from of [
      event({ id: 8 }).event,
      event({ url: "https://evil.example/index.html" }).event,
      event({ url: "file:///tmp/index.html" }).event,
      event({ url: null }).event,
    ]) {
      const result = await invoke(ipcChannels.request, from, "health", {});
      expect(result).toMatchObject({ ok: false, status: 403, error: { code: "forbidden" } });
      await expect(invoke(ipcChannels.getPreferences, from)).resolves.toMatchObject({
        ok: false,
        status: 403,
      });
      await expect(invoke(ipcChannels.setPreferences, from, { port: 1 })).resolves.toMatchObject({
        ok: false,
      });
    }
    expect(requests).toEqual([]);
  });

  it("rejects unknown routes and bad arguments before anything runs", async () => {
    const { invoke, requests } = setup();
    const from = event().event;
    const cases: unknown[][] = [
      ["shutdown", {}],
      [42, {}],
      ["constructor", {}],
      ["listModels", "not-an-object"],
      ["listModels", { body: { injected: true } }],
      ["deleteModel", { params: { model_id: "../../etc" } }],
      ["deleteModel", {}],
      ["putModelSettings", { params: { model_id: "m" }, body: { sampling: { temperature: "hot" } } }],
      ["queueAccuracyRun", { body: { model_id: "m", benchmarks: ["rm -rf"] } }],
      ["deleteAccuracyResult", { params: { result_id: "../results/x" } }],
    ];
    for (const [name, input] of cases) {
      const result = await invoke(ipcChannels.request, from, name, input);
      expect(result, String(name)).toMatchObject({
        ok: false,
        status: 400,
        error: { code: "invalid_request" },
      });
    }
    const detailed = await invoke(ipcChannels.request, from, "putModelSettings", {
      params: { model_id: "m" },
      body: { sampling: { temperature: "hot" } },
    });
    expect(detailed.ok === false && detailed.error.details).toEqual([
      { path: ["sampling", "temperature"], message: expect.any(String) },
    ]);
    expect(requests).toEqual([]);
  });

  it("passes the API's error answers through as data", async () => {
    const { invoke } = setup({
      request: async () => ({
        statusCode: 404,
        body: JSON.stringify({
          error: { message: "No model 'm'", type: "not_found_error", code: "model_not_found", param: null },
        }),
      }),
    });
    await expect(
      invoke(ipcChannels.request, event().event, "deleteModel", { params: { model_id: "m" } }),
    ).resolves.toEqual({
      ok: false,
      status: 404,
      error: { message: "No model 'm'", type: "not_found_error", code: "model_not_found", param: null },
    });
  });

  it("never throws into the renderer when the server does", async () => {
    const { invoke } = setup({
      request: async () => {
        throw new Error("boom at /Users/someone/secret/path");
      },
    });
    const result = await invoke(ipcChannels.request, event().event, "health", {});
    expect(result).toMatchObject({ ok: false, status: 500, error: { code: "internal_error" } });
    expect(JSON.stringify(result)).not.toContain("/Users/someone");
  });

  it("validates preference patches", async () => {
    const { invoke, backend } = setup();
    const from = event().event;
    await expect(invoke(ipcChannels.setPreferences, from, { launch_at_login: "yes" })).resolves.toMatchObject(
      {
        ok: false,
        status: 400,
      },
    );
    // The port and model folders belong to settings.json (the dashboard's settings page).
    for (const patch of [{ port: 12000 }, { models_dirs: ["/tmp"] }]) {
      await expect(invoke(ipcChannels.setPreferences, from, patch)).resolves.toMatchObject({
        ok: false,
        status: 400,
      });
    }
    await expect(invoke(ipcChannels.setPreferences, from, { unknown: true })).resolves.toMatchObject({
      ok: false,
    });
    const saved = await invoke(ipcChannels.setPreferences, from, { launch_at_login: true });
    expect(saved).toEqual({ ok: true, status: 200, data: { launch_at_login: true, serve_on_launch: true } });
    expect(backend.store).toEqual({ launch_at_login: true, serve_on_launch: true });
  });

  it("forwards a stream's events to the subscribing window, then its end", async () => {
    const chunks = [
      'data: {"type":"run_started","run_id":"run-1","seq":0,"at":"2026-03-01T10:00:00.000Z"}\n',
      '\ndata: {"type":"run_finished","run_id":"run-1","seq":1,"at":"2026-03-01T10:00:00.000Z","state":"completed","error":null}\n\n',
    ];
    const paths: string[] = [];
    const { handlers } = setup({
      stream: async (url) => {
        paths.push(url);
        return {
          statusCode: 200,
          body: (async function* () {
            for (const chunk of chunks) yield Buffer.from(chunk);
          })(),
        };
      },
    });
    const { event: from, sent } = event();
    handlers.get(ipcChannels.subscribe)?.(from, "sub-1", "accuracyRun", { run_id: "run-1" });
    await vi.waitFor(() => expect(sent.at(-1)).toEqual({ kind: "end", subscription: "sub-1" }));
    expect(paths).toEqual(["/admin/api/bench/accuracy/run-1/stream"]);
    expect(
      sent.map((message) =>
        message.kind === "event" ? (message.event as { type: string }).type : message.kind,
      ),
    ).toEqual(["run_started", "run_finished", "end"]);
  });

  it("answers a bad stream subscription with an error message, and ignores untrusted ones", async () => {
    const stream = vi.fn();
    const { handlers } = setup({ stream });
    const good = event();
    handlers.get(ipcChannels.subscribe)?.(good.event, "sub-2", "accuracyRun", { run_id: "../x" });
    expect(good.sent).toEqual([
      { kind: "error", subscription: "sub-2", error: expect.objectContaining({ code: "invalid_request" }) },
    ]);
    const bad = event({ id: 99 });
    handlers.get(ipcChannels.subscribe)?.(bad.event, "sub-3", "accuracyRun", { run_id: "run-1" });
    handlers.get(ipcChannels.subscribe)?.(good.event, "bad id with spaces", "accuracyRun", {
      run_id: "run-1",
    });
    expect(bad.sent).toEqual([]);
    expect(stream).not.toHaveBeenCalled();
  });

  it("aborts a stream on unsubscribe and when the window goes away", async () => {
    const signals: AbortSignal[] = [];
    const { handlers } = setup({
      stream: async (_url, signal) => {
        signals.push(signal);
        return {
          statusCode: 200,
          body: (async function* () {
            await new Promise((resolve) => signal.addEventListener("abort", resolve));
            yield* [];
          })(),
        };
      },
    });
    const first = event();
    handlers.get(ipcChannels.subscribe)?.(first.event, "a", "performanceRun", { run_id: "r1" });
    handlers.get(ipcChannels.subscribe)?.(first.event, "b", "performanceRun", { run_id: "r2" });
    await vi.waitFor(() => expect(signals).toHaveLength(2));
    handlers.get(ipcChannels.unsubscribe)?.(first.event, "a");
    expect(signals[0].aborted).toBe(true);
    expect(signals[1].aborted).toBe(false);
    first.destroy();
    expect(signals[1].aborted).toBe(true);
  });
});
