import type { BrowserWindow, BrowserWindowConstructorOptions } from "electron";

export type WindowLike = Pick<
  BrowserWindow,
  "loadURL" | "show" | "focus" | "hide" | "on" | "isDestroyed" | "isVisible" | "webContents"
>;

export type DashboardPage = "models" | "benchmarks" | "server" | "settings";

export interface DashboardWindowOptions {
  /** `(options) => new BrowserWindow(options)`; tests pass a fake. */
  createWindow: (options: BrowserWindowConstructorOptions) => WindowLike;
  /** `file://…/dist/renderer/index.html` */
  pageUrl: string;
  /** Compiled `preload.cjs`. */
  preloadPath: string;
  /** Opens links (a model's repository) in the user's browser. */
  openExternal: (url: string) => void;
}

/** Hardened: isolated, sandboxed, no Node in the page; the preload exposes only the client. */
export const dashboardWebPreferences = (
  preloadPath: string,
): BrowserWindowConstructorOptions["webPreferences"] => ({
  preload: preloadPath,
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
});

/** The dashboard window: created on first use, hidden (not destroyed) when closed. */
export class DashboardWindow {
  private window: WindowLike | null = null;
  private quitting = false;

  constructor(private readonly options: DashboardWindowOptions) {}

  /** Shows the window at a page; an open window switches page without reloading (runs keep their live view). */
  show(page: DashboardPage = "models"): void {
    const existing = this.window && !this.window.isDestroyed() ? this.window : null;
    const window = this.ensure();
    if (existing) void window.webContents.executeJavaScript(`location.hash = ${JSON.stringify(`#/${page}`)}`);
    else void window.loadURL(`${this.options.pageUrl}#/${page}`);
    window.show();
    window.focus();
  }

  webContentsId(): number | null {
    return this.window && !this.window.isDestroyed() ? this.window.webContents.id : null;
  }

  /** From `before-quit`: closing is for real now. */
  setQuitting(): void {
    this.quitting = true;
  }

  private ensure(): WindowLike {
    if (this.window && !this.window.isDestroyed()) return this.window;
    const window = this.options.createWindow({
      width: 1280,
      height: 820,
      minWidth: 900,
      minHeight: 560,
      show: false,
      title: "Perch",
      titleBarStyle: "hiddenInset",
      backgroundColor: "#f5f5f7",
      webPreferences: dashboardWebPreferences(this.options.preloadPath),
    });
    window.on("close", (event) => {
      if (this.quitting) return;
      event.preventDefault();
      window.hide();
    });
    const contents = window.webContents;
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) this.options.openExternal(url);
      return { action: "deny" };
    });
    contents.on("will-navigate", (event, url) => {
      if (url.split("#")[0] !== this.options.pageUrl) event.preventDefault();
    });
    contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    this.window = window;
    return window;
  }
}
