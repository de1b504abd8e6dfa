import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ipcChannels, type IpcResult } from "../../../src-shared/contracts/ipcBridge.js";
import { AppPreferencesStore } from "../../../src-main/app/AppPreferencesStore.js";
import { createSenderCheck } from "../../../src-main/app/createSenderCheck.js";
import {
  registerIpcHandlers,
  type IpcEventLike,
  type IpcMainLike,
} from "../../../src-main/app/registerIpcHandlers.js";
import { ServerController } from "../../../src-main/app/ServerController.js";
import { createCore, type Core } from "../../../src-main/core/createCore.js";
import { buildServer } from "../../../src-main/server/buildServer.js";

/*
 * The app's IPC wiring over the real core and the real routes (no model is loaded): what the
 * dashboard window gets is exactly what the HTTP admin API answers.
 */
describe("IPC over the real core", () => {
  let basePath: string;
  let core: Core;
  let controller: ServerController;
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  const pageUrl = "file:///app/dist/renderer/index.html";
  const window: IpcEventLike = {
    sender: { id: 3, send: () => undefined, once: () => undefined },
    senderFrame: { url: `${pageUrl}#/models` },
  };
  const request = (name: string, input: unknown = {}) =>
    Promise.resolve(handlers.get(ipcChannels.request)?.(window, name, input)) as Promise<IpcResult>;

  beforeAll(async () => {
    basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-ipc-"));
    core = await createCore({ basePath, logLevel: "silent" });
    controller = new ServerController({
      host: "127.0.0.1",
      port: 0,
      // As the app builds it: the one builder over the core.
      buildApp: () => buildServer(core),
    });
    const ipcMain: IpcMainLike = {
      handle: (c, l) => void handlers.set(c, l),
      on: (c, l) => void handlers.set(c, l),
    };
    registerIpcHandlers(ipcMain, {
      isTrustedSender: createSenderCheck({ dashboardWebContentsId: () => 3, pageUrl }),
      server: controller,
      preferences: new AppPreferencesStore({ store: {} }),
    });
  });

  afterAll(async () => {
    await controller?.dispose();
    await core?.close();
    fs.rmSync(basePath, { recursive: true, force: true });
  });

  it("lists models and health through the same routes as HTTP", async () => {
    await expect(request("listModels")).resolves.toMatchObject({
      ok: true,
      status: 200,
      data: { models: [], models_dirs: [path.join(basePath, "models")] },
    });
    await expect(request("health")).resolves.toMatchObject({ ok: true, data: { status: "ok" } });
    await expect(request("listAccuracyResults", { query: {} })).resolves.toMatchObject({
      ok: true,
      data: { results: [] },
    });
  });

  it("answers the API's typed errors as data", async () => {
    await expect(
      request("putModelSettings", { params: { model_id: "nobody/none" }, body: { tags: ["x"] } }),
    ).resolves.toMatchObject({ ok: false, status: 404 });
    await expect(
      request("deleteAccuracyResult", { params: { result_id: "missing-1" } }),
    ).resolves.toMatchObject({
      ok: false,
      status: 404,
      error: { code: "result_not_found" },
    });
  });
});
