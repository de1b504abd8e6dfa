import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from "electron";
import {
  buildTrayMenu,
  trayTooltip,
  type TrayAction,
  type TrayMenuItem,
  type TrayState,
} from "./buildTrayMenu.js";

export interface TrayControllerOptions {
  /** `(icon) => new Tray(icon)`; tests pass a fake. */
  createTray: (icon: NativeImage | string) => Pick<Tray, "setContextMenu" | "setToolTip" | "destroy">;
  /** `Menu.buildFromTemplate`. */
  buildMenu: (template: MenuItemConstructorOptions[]) => Menu;
  /** Template image (black + alpha) so macOS tints it for light and dark menu bars. */
  icon: NativeImage | string;
  onAction: (action: TrayAction) => void;
}

/** The menu-bar icon: redraws its menu whenever the state changes. */
export class TrayController {
  private readonly tray: ReturnType<TrayControllerOptions["createTray"]>;

  constructor(private readonly options: TrayControllerOptions) {
    this.tray = options.createTray(options.icon);
  }

  update(state: TrayState): void {
    this.tray.setToolTip(trayTooltip(state));
    this.tray.setContextMenu(
      this.options.buildMenu(buildTrayMenu(state).map((item) => this.toElectron(item))),
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
