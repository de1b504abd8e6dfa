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
  | { type: "quit" };

/** A menu entry, independent of Electron (the tray turns it into a `MenuItemConstructorOptions`). */
export interface TrayMenuItem {
  type?: "separator";
  label?: string;
  enabled?: boolean;
  action?: TrayAction;
  submenu?: TrayMenuItem[];
}

const statusLine: Record<TrayState["server"]["state"], string> = {
  stopped: "Server stopped",
  starting: "Server starting…",
  running: "Server running",
  stopping: "Server stopping…",
  failed: "Server failed to start",
};

/** The tray menu for a state: status and address, start/stop, loaded models, windows, quit. */
export function buildTrayMenu(state: TrayState): TrayMenuItem[] {
  const { server } = state;
  const busy = server.state === "starting" || server.state === "stopping";
  const items: TrayMenuItem[] = [{ label: statusLine[server.state], enabled: false }];
  if (server.state === "running" && server.url) {
    items.push({ label: `Address: ${server.url}`, action: { type: "copy-address" } });
  }
  if (server.state === "failed" && server.error) items.push({ label: server.error, enabled: false });
  items.push(
    server.state === "running" || server.state === "stopping"
      ? { label: "Stop Server", enabled: !busy, action: { type: "stop-server" } }
      : { label: "Start Server", enabled: !busy, action: { type: "start-server" } },
    { type: "separator" },
  );

  if (state.loadedModels.length === 0) {
    items.push({ label: "No models loaded", enabled: false });
  } else {
    items.push({ label: "Loaded Models", enabled: false });
    for (const model of state.loadedModels) {
      const detail =
        model.state === "loading"
          ? " (loading…)"
          : model.activeUsers > 0
            ? ` (${model.activeUsers} in use)`
            : "";
      items.push({
        label: `${model.id}${detail}`,
        submenu: [
          {
            label: "Unload",
            enabled: model.state === "loaded",
            action: { type: "unload-model", modelId: model.id },
          },
        ],
      });
    }
  }

  items.push(
    { type: "separator" },
    { label: "Open Dashboard", action: { type: "open-dashboard" } },
    { label: "Settings…", action: { type: "open-settings" } },
    { type: "separator" },
    { label: "Quit Perch", action: { type: "quit" } },
  );
  return items;
}

/** One-line tooltip of the tray icon. */
export function trayTooltip(state: TrayState): string {
  return state.server.state === "running" && state.server.url
    ? `Perch — serving at ${state.server.url}`
    : `Perch — ${statusLine[state.server.state].toLowerCase()}`;
}
