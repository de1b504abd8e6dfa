import { describe, expect, it, vi } from "vitest";
import type { Menu, MenuItemConstructorOptions } from "electron";
import { buildTrayMenu, trayTooltip, type TrayState } from "../../../src-main/app/buildTrayMenu.js";
import { createTrayTranslator } from "../../../src-main/app/createTrayTranslator.js";
import { TrayController } from "../../../src-main/app/TrayController.js";
import { matchTrayLocale, trayMessages } from "../../../src-shared/i18n/trayMessages.js";

const running: TrayState = {
  server: { state: "running", url: "http://127.0.0.1:11435", error: null },
  loadedModels: [{ id: "org/big-Q4_K_M", state: "loaded", activeUsers: 2 }],
};

describe("tray languages", () => {
  it("speaks German and Japanese, placeholders filled", () => {
    const de = buildTrayMenu(running, createTrayTranslator("de")).map((item) => item.label ?? "---");
    expect(de).toEqual([
      "Server läuft",
      "Adresse: http://127.0.0.1:11435",
      "Server stoppen",
      "---",
      "Geladene Modelle",
      "org/big-Q4_K_M (2 in Benutzung)",
      "---",
      "Dashboard öffnen",
      "Einstellungen…",
      "Logs öffnen",
      "---",
      "Perch beenden",
    ]);
    const ja = createTrayTranslator("ja");
    const stopped: TrayState = { server: { state: "stopped", url: null, error: null }, loadedModels: [] };
    expect(buildTrayMenu(stopped, ja).map((item) => item.label)).toContain("サーバーを起動");
    expect(buildTrayMenu(stopped, ja).map((item) => item.label)).toContain("ログを開く");
    expect(trayTooltip(running, ja)).toBe("Perch — http://127.0.0.1:11435 で提供中");
  });

  it("has every string in every language", () => {
    const keys = Object.keys(trayMessages.en).sort();
    for (const messages of Object.values(trayMessages)) expect(Object.keys(messages).sort()).toEqual(keys);
  });

  it("follows the system's languages, best first, else English", () => {
    expect(matchTrayLocale(["de-CH", "en-US"])).toBe("de");
    expect(matchTrayLocale(["fr-FR", "ja_JP"])).toBe("ja");
    expect(matchTrayLocale(["fr-FR"])).toBe("en");
    expect(matchTrayLocale([])).toBe("en");
  });

  it("hands the Open Logs click to the app through the injected tray", () => {
    const tray = { setContextMenu: vi.fn(), setToolTip: vi.fn(), destroy: vi.fn() };
    let template: MenuItemConstructorOptions[] = [];
    const onAction = vi.fn();
    const controller = new TrayController({
      createTray: () => tray,
      buildMenu: (items) => {
        template = items;
        return {} as Menu;
      },
      icon: "icon.png",
      onAction,
      translate: createTrayTranslator("de"),
    });
    controller.update(running);
    expect(tray.setToolTip).toHaveBeenCalledWith("Perch — bedient http://127.0.0.1:11435");
    const openLogs = template.find((item) => item.label === "Logs öffnen");
    (openLogs?.click as () => void)();
    expect(onAction).toHaveBeenCalledWith({ type: "open-logs" });
  });
});
