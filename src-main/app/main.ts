// Entry of the menu-bar app (Electron main process). Everything that does work lives in the core;
// this file only wires Electron's objects into the tray, window and IPC classes.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, shell, Tray } from "electron";
import ElectronStore from "electron-store";
import { createCore } from "../core/createCore.js";
import { createLogger, logToFile } from "../base/createLogger.js";
import { PerchError } from "../base/PerchError.js";
import { resolveConfig } from "../settings/PerchConfig.js";
import { buildServer } from "../server/buildServer.js";
import { matchTrayLocale } from "../../src-shared/i18n/trayMessages.js";
import { AppPreferencesStore } from "./AppPreferencesStore.js";
import type { TrayAction, TrayState } from "./buildTrayMenu.js";
import { createSenderCheck } from "./createSenderCheck.js";
import { createTrayTranslator } from "./createTrayTranslator.js";
import { DashboardWindow } from "./DashboardWindow.js";
import { moveServerPreferences } from "./moveServerPreferences.js";
import { registerIpcHandlers, type IpcMainLike } from "./registerIpcHandlers.js";
import { ServerController } from "./ServerController.js";
import { TrayController } from "./TrayController.js";
import { errorMessage } from "../base/describeError.js";
import { perchPaths } from "../base/perchPaths.js";

const log = createLogger("app");

async function main(): Promise<void> {
  // A menu-bar app: no Dock icon, one instance.
  app.dock?.hide();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();

  const root = app.getAppPath();
  const rendererDir = path.join(root, "dist/renderer");
  const pageUrl = pathToFileURL(path.join(rendererDir, "index.html")).href;
  const preferencesBackend = new ElectronStore({ name: "preferences" });
  const basePath = resolveConfig({}).basePath;
  // A Finder-launched app has no terminal: its log lines go to <base>/logs (tray: Open Logs).
  await logToFile(perchPaths(basePath).logs);
  const preferences = new AppPreferencesStore(preferencesBackend);
  const initial = preferences.get();
  app.setLoginItemSettings({ openAtLogin: initial.launch_at_login });

  // No random-weight starter model here (that is a CLI/dev tool): a first run starts with no model.
  // One owner per setting: the port and model folders live in settings.json (the dashboard edits
  // it), so values an earlier version kept in the preferences move there once, before it is read.
  const core = await createCore(
    { basePath, rendererDir },
    { migrateSettings: (settings) => moveServerPreferences(preferencesBackend, settings) },
  );
  const server = new ServerController({
    host: core.config.host,
    port: core.config.port,
    apiKey: core.config.apiKey,
    buildApp: () => buildServer(core),
  });

  const window = new DashboardWindow({
    createWindow: (options) => new BrowserWindow(options),
    pageUrl,
    preloadPath: path.join(root, "dist/main/src-main/app/preload.cjs"),
    openExternal: (url) => void shell.openExternal(url),
  });
  registerIpcHandlers(ipcMain as unknown as IpcMainLike, {
    isTrustedSender: createSenderCheck({ dashboardWebContentsId: () => window.webContentsId(), pageUrl }),
    server,
    preferences,
  });

  const onAction = (action: TrayAction): void => {
    switch (action.type) {
      case "start-server":
        void server.start();
        return;
      case "stop-server":
        void server.stop();
        return;
      case "copy-address":
        if (server.status.url) clipboard.writeText(server.status.url);
        return;
      case "unload-model":
        void core.engine.unload(action.modelId);
        return;
      case "open-dashboard":
        window.show("models");
        return;
      case "open-settings":
        window.show("settings");
        return;
      case "open-logs": {
        const logs = path.join(core.config.basePath, "logs");
        fs.mkdirSync(logs, { recursive: true });
        void shell.openPath(logs);
        return;
      }
      case "quit":
        app.quit();
        return;
      default:
        action satisfies never;
    }
  };
  const icon = nativeImage.createFromPath(path.join(root, "assets/trayTemplate.png"));
  icon.setTemplateImage(true);
  const tray = new TrayController({
    createTray: (image) => new Tray(image),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    icon,
    onAction,
    // The system's language, as the dashboard picks its own when none was chosen.
    translate: createTrayTranslator(matchTrayLocale(app.getPreferredSystemLanguages())),
  });
  const trayState = (): TrayState => ({
    server: server.status,
    loadedModels: core.engine.list().map((model) => ({
      id: model.id,
      state: model.state,
      activeUsers: model.activeUsers,
    })),
  });
  const redraw = () => tray.update(trayState());
  server.onChange(redraw);
  core.engine.onChange(redraw);
  redraw();

  preferences.onChange((next, previous) => {
    if (next.launch_at_login !== previous.launch_at_login) {
      app.setLoginItemSettings({ openAtLogin: next.launch_at_login });
    }
  });
  // The dashboard's settings page writes settings.json: a new port applies at once in the app.
  let port = core.config.port;
  core.settings.onChange((settings) => {
    if (settings.port === port) return;
    port = settings.port;
    void server.setPort(port);
  });

  app.on("second-instance", () => window.show());
  // Closing the dashboard only hides it; the app lives on in the menu bar.
  app.on("window-all-closed", () => undefined);
  app.on("before-quit", () => window.setQuitting());
  let disposed = false;
  app.on("will-quit", (event) => {
    if (disposed) return;
    event.preventDefault();
    disposed = true;
    void (async () => {
      tray.destroy();
      await server.dispose();
      await core.close();
      app.quit();
    })();
  });

  if (initial.serve_on_launch) await server.start();
  log.info({ status: server.status }, "Perch is in the menu bar");
}

main().catch((error: unknown) => {
  log.fatal({ err: errorMessage(error) }, "Perch failed to start");
  // A menu-bar app has no terminal: say why (an unreadable settings.json names itself and the fix).
  if (error instanceof PerchError) dialog.showErrorBox("Perch cannot start", error.message);
  app.exit(1);
});
