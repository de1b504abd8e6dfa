import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from "electron";
import {
  buildTrayMenu,
  trayTooltip,
  type TrayAction,
  type TrayMenuItem,
  type TrayState,
} from "./buildTrayMenu.js";
import type { TrayTranslate } from "./createTrayTranslator.js";

export interface TrayControllerOptions {
  /** `(icon) => new Tray(icon)`; tests pass a fake. */
  createTray: (icon: NativeImage | string) => Pick<Tray, "setContextMenu" | "setToolTip" | "destroy">;
  /** `Menu.buildFromTemplate`. */
  buildMenu: (template: MenuItemConstructorOptions[]) => Menu;
  /** Template image (black + alpha) so macOS tints it for light and dark menu bars. */
  icon: NativeImage | string;
  onAction: (action: TrayAction) => void;
  /** The menu's language (the system's, see main.ts). Defaults to English. */
  translate?: TrayTranslate;
}

/** The menu-bar icon: redraws its menu whenever the state changes. */
export class TrayController {
  private readonly tray: ReturnType<TrayControllerOptions["createTray"]>;

  constructor(private readonly options: TrayControllerOptions) {
    this.tray = options.createTray(options.icon);
  }

  update(state: TrayState): void {
    const t = this.options.translate;
    this.tray.setToolTip(trayTooltip(state, t));
    this.tray.setContextMenu(
      this.options.buildMenu(buildTrayMenu(state, t).map((item) => this.toElectron(item))),
    );
  }

  destroy(): void {
    this.tray.destroy();
  }

  private toElectron(item: TrayMenuItem): MenuItemConstructorOptions {
    if (item.type === "separator") return { type: "separator" };
    const action = item.action;
    return {
      label: item.label,
      enabled: item.enabled ?? true,
      ...(action ? { click: () => this.options.onAction(action) } : {}),
      ...(item.submenu ? { submenu: item.submenu.map((child) => this.toElectron(child)) } : {}),
    };
  }
}
