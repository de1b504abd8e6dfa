import type { TrayMessageKey } from "../../src-shared/i18n/trayMessages.js";
import { createTrayTranslator, type TrayTranslate } from "./createTrayTranslator.js";

/** What the tray shows; built from the server controller and the engine pool. */
export interface TrayState {
  server: {
    state: "stopped" | "starting" | "running" | "stopping" | "failed";
    /** Base URL while running. */
    url: string | null;
    /** Why the last start failed (port in use...). */
    error: string | null;
  };
  loadedModels: { id: string; state: "loading" | "loaded"; activeUsers: number }[];
}

export type TrayAction =
  | { type: "start-server" }
  | { type: "stop-server" }
  | { type: "copy-address" }
  | { type: "unload-model"; modelId: string }
  | { type: "open-dashboard" }
  | { type: "open-settings" }
  | { type: "open-logs" }
  | { type: "quit" };

/** A menu entry, independent of Electron (the tray turns it into a `MenuItemConstructorOptions`). */
export interface TrayMenuItem {
  type?: "separator";
  label?: string;
  enabled?: boolean;
  action?: TrayAction;
  submenu?: TrayMenuItem[];
}

const statusLine: Record<TrayState["server"]["state"], TrayMessageKey> = {
  stopped: "serverStopped",
  starting: "serverStarting",
  running: "serverRunning",
  stopping: "serverStopping",
  failed: "serverFailed",
};

const english = createTrayTranslator("en");

/**
 * The tray menu for a state: status and address, start/stop, loaded models, windows, logs, quit,
 * in the language of `t`. Defaults to English.
 */
export function buildTrayMenu(state: TrayState, t: TrayTranslate = english): TrayMenuItem[] {
  const { server } = state;
  const busy = server.state === "starting" || server.state === "stopping";
  const items: TrayMenuItem[] = [{ label: t(statusLine[server.state]), enabled: false }];
  if (server.state === "running" && server.url) {
    items.push({ label: t("address", { url: server.url }), action: { type: "copy-address" } });
  }
  if (server.state === "failed" && server.error) items.push({ label: server.error, enabled: false });
  items.push(
    server.state === "running" || server.state === "stopping"
      ? { label: t("stopServer"), enabled: !busy, action: { type: "stop-server" } }
      : { label: t("startServer"), enabled: !busy, action: { type: "start-server" } },
    { type: "separator" },
  );

  if (state.loadedModels.length === 0) {
    items.push({ label: t("noModelsLoaded"), enabled: false });
  } else {
    items.push({ label: t("loadedModels"), enabled: false });
    for (const model of state.loadedModels) {
      const label =
        model.state === "loading"
          ? t("modelLoading", { id: model.id })
          : model.activeUsers > 0
            ? t("modelInUse", { id: model.id, count: model.activeUsers })
            : model.id;
      items.push({
        label,
        submenu: [
          {
            label: t("unload"),
            enabled: model.state === "loaded",
            action: { type: "unload-model", modelId: model.id },
          },
        ],
      });
    }
  }

  items.push(
    { type: "separator" },
    { label: t("openDashboard"), action: { type: "open-dashboard" } },
    { label: t("settings"), action: { type: "open-settings" } },
    { label: t("openLogs"), action: { type: "open-logs" } },
    { type: "separator" },
    { label: t("quit"), action: { type: "quit" } },
  );
  return items;
}

/** One-line tooltip of the tray icon. */
export function trayTooltip(state: TrayState, t: TrayTranslate = english): string {
  return state.server.state === "running" && state.server.url
    ? t("tooltipServing", { url: state.server.url })
    : t("tooltipStatus", { status: t(statusLine[state.server.state]).toLowerCase() });
}
