import { describe, expect, it, vi } from "vitest";
import type { Menu, MenuItemConstructorOptions } from "electron";
import { buildTrayMenu, trayTooltip, type TrayState } from "../../../src-main/app/buildTrayMenu.js";
import { TrayController } from "../../../src-main/app/TrayController.js";

const running: TrayState = {
  server: { state: "running", url: "http://127.0.0.1:11435", error: null },
  loadedModels: [
    { id: "org/big-Q4_K_M", state: "loaded", activeUsers: 2 },
    { id: "org/small-Q8_0", state: "loading", activeUsers: 0 },
  ],
};

const labels = (state: TrayState) => buildTrayMenu(state).map((item) => item.label ?? "---");

describe("tray menu model", () => {
  it("shows status and address, stop, loaded models with unload, dashboard, settings, quit", () => {
    expect(labels(running)).toEqual([
      "Server running",
      "Address: http://127.0.0.1:11435",
      "Stop Server",
      "---",
      "Loaded Models",
      "org/big-Q4_K_M (2 in use)",
      "org/small-Q8_0 (loading…)",
      "---",
      "Open Dashboard",
      "Settings…",
      "Open Logs",
      "---",
      "Quit Perch",
    ]);
    const menu = buildTrayMenu(running);
    const big = menu.find((item) => item.label?.startsWith("org/big"));
    expect(big?.submenu).toEqual([
      { label: "Unload", enabled: true, action: { type: "unload-model", modelId: "org/big-Q4_K_M" } },
    ]);
    expect(menu.find((item) => item.label?.startsWith("org/small"))?.submenu?.[0].enabled).toBe(false);
    expect(menu[0].enabled).toBe(false);
    expect(trayTooltip(running)).toBe("Perch — serving at http://127.0.0.1:11435");
  });

  it("offers Start when stopped, says why a start failed, and disables the button while busy", () => {
    const stopped = labels({ server: { state: "stopped", url: null, error: null }, loadedModels: [] });
    expect(stopped.slice(0, 4)).toEqual(["Server stopped", "Start Server", "---", "No models loaded"]);
    const failed = buildTrayMenu({
      server: { state: "failed", url: null, error: "Port 11435 is already in use" },
      loadedModels: [],
    });
    expect(failed.map((item) => item.label)).toContain("Port 11435 is already in use");
    const starting = buildTrayMenu({
      server: { state: "starting", url: null, error: null },
      loadedModels: [],
    });
    expect(starting.find((item) => item.label === "Start Server")?.enabled).toBe(false);
  });
});

describe("TrayController", () => {
  it("builds the Electron menu through the injected factories and dispatches clicks", () => {
    const tray = { setContextMenu: vi.fn(), setToolTip: vi.fn(), destroy: vi.fn() };
    let template: MenuItemConstructorOptions[] = [];
    const onAction = vi.fn();
    const controller = new TrayController({
      createTray: () => tray,
      buildMenu: (items) => {
        template = items;
        return { items } as unknown as Menu;
      },
      icon: "assets/trayTemplate.png",
      onAction,
    });
    controller.update(running);
    expect(tray.setToolTip).toHaveBeenCalledWith("Perch — serving at http://127.0.0.1:11435");
    expect(tray.setContextMenu).toHaveBeenCalledTimes(1);
    const click = (label: string) => {
      const item = template.find((entry) => entry.label === label);
      (item?.click as () => void)();
    };
    click("Stop Server");
    click("Open Dashboard");
    click("Quit Perch");
    const unload = (
      template.find((entry) => entry.label?.startsWith("org/big"))?.submenu as MenuItemConstructorOptions[]
    )[0];
    (unload.click as () => void)();
    expect(onAction.mock.calls.map(([action]) => action)).toEqual([
      { type: "stop-server" },
      { type: "open-dashboard" },
      { type: "quit" },
      { type: "unload-model", modelId: "org/big-Q4_K_M" },
    ]);
    expect(template.find((entry) => entry.label === "Server running")?.click).toBeUndefined();
    expect(template.filter((entry) => entry.type === "separator")).toHaveLength(3);
    controller.destroy();
    expect(tray.destroy).toHaveBeenCalled();
  });
});
