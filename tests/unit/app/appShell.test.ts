import { describe, expect, it, vi } from "vitest";
import type { BrowserWindowConstructorOptions } from "electron";
import { AppPreferencesStore } from "../../../src-main/app/AppPreferencesStore.js";
import { DashboardWindow, type WindowLike } from "../../../src-main/app/DashboardWindow.js";

function fakeWindow() {
  const listeners = new Map<string, (...args: unknown[]) => void>();
  const contentsListeners = new Map<string, (...args: unknown[]) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  let permissionHandler:
    ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
  const window = {
    loadURL: vi.fn(async (_url: string) => undefined),
    show: vi.fn(),
    focus: vi.fn(),
    hide: vi.fn(),
    isDestroyed: () => false,
    isVisible: () => true,
    on: (name: string, listener: (...args: unknown[]) => void) => listeners.set(name, listener),
    webContents: {
      id: 7,
      executeJavaScript: vi.fn(async (_code: string) => undefined),
      on: (name: string, listener: (...args: unknown[]) => void) => contentsListeners.set(name, listener),
      setWindowOpenHandler: (handler: typeof openHandler) => {
        openHandler = handler;
      },
      session: {
        setPermissionRequestHandler: (handler: typeof permissionHandler) => (permissionHandler = handler),
      },
    },
  };
  return {
    window: window as unknown as WindowLike,
    raw: window,
    listeners,
    contentsListeners,
    open: (url: string) => openHandler?.({ url }),
    permission: (name: string) => new Promise<boolean>((resolve) => permissionHandler?.(null, name, resolve)),
  };
}

describe("DashboardWindow", () => {
  const pageUrl = "file:///app/dist/renderer/index.html";

  it("creates a hardened window once and shows the page asked for", () => {
    const fake = fakeWindow();
    const created: BrowserWindowConstructorOptions[] = [];
    const dashboard = new DashboardWindow({
      createWindow: (options) => {
        created.push(options);
        return fake.window;
      },
      pageUrl,
      preloadPath: "/app/dist/main/src-main/app/preload.cjs",
      openExternal: vi.fn(),
    });
    expect(dashboard.webContentsId()).toBeNull();
    dashboard.show("benchmarks");
    dashboard.show("settings");
    expect(created).toHaveLength(1);
    expect(created[0].webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      preload: "/app/dist/main/src-main/app/preload.cjs",
    });
    // The first show loads the page; later ones only switch the hash (no reload).
    expect(fake.raw.loadURL.mock.calls.map(([url]) => url)).toEqual([`${pageUrl}#/benchmarks`]);
    expect(fake.raw.webContents.executeJavaScript.mock.calls.map(([code]) => code)).toEqual([
      'location.hash = "#/settings"',
    ]);
    expect(dashboard.webContentsId()).toBe(7);
  });

  it("hides instead of closing until the app quits; keeps navigation and permissions locked", async () => {
    const fake = fakeWindow();
    const openExternal = vi.fn();
    const dashboard = new DashboardWindow({
      createWindow: () => fake.window,
      pageUrl,
      preloadPath: "p",
      openExternal,
    });
    dashboard.show();
    const close = { preventDefault: vi.fn() };
    fake.listeners.get("close")?.(close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(fake.raw.hide).toHaveBeenCalled();

    const navigate = { preventDefault: vi.fn() };
    fake.contentsListeners.get("will-navigate")?.(navigate, "https://evil.example/");
    expect(navigate.preventDefault).toHaveBeenCalled();
    expect(fake.open("https://huggingface.co/org/repo")).toEqual({ action: "deny" });
    expect(openExternal).toHaveBeenCalledWith("https://huggingface.co/org/repo");
    expect(fake.open("file:///etc/passwd")).toEqual({ action: "deny" });
    expect(openExternal).toHaveBeenCalledTimes(1);
    await expect(fake.permission("media")).resolves.toBe(false);

    dashboard.setQuitting();
    const quitClose = { preventDefault: vi.fn() };
    fake.listeners.get("close")?.(quitClose);
    expect(quitClose.preventDefault).not.toHaveBeenCalled();
  });
});

describe("AppPreferencesStore", () => {
  it("reads defaults, drops unknown keys, survives a broken file and notifies changes", () => {
    const backend = { store: { launch_at_login: "yes", extra: 1 } as Record<string, unknown> };
    const store = new AppPreferencesStore(backend);
    expect(store.get()).toEqual({ launch_at_login: false, serve_on_launch: true });
    const seen: boolean[] = [];
    store.onChange((next, previous) => seen.push(previous.launch_at_login, next.launch_at_login));
    expect(store.set({ launch_at_login: true })).toMatchObject({ launch_at_login: true });
    expect(seen).toEqual([false, true]);
    expect(backend.store).not.toHaveProperty("extra");
    // The port is settings.json's (one owner per setting): not an app preference.
    expect(() => store.set({ port: 12000 })).toThrow();
  });
});
