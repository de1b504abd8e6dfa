import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AppPreferencesStore } from "../../../src-main/app/AppPreferencesStore.js";
import { moveServerPreferences } from "../../../src-main/app/moveServerPreferences.js";
import { SettingsStore } from "../../../src-main/settings/SettingsStore.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});
function settingsIn(): SettingsStore {
  const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-move-prefs-"));
  folders.push(basePath);
  return new SettingsStore({ basePath });
}

describe("one owner per setting: settings.json", () => {
  it("moves an old preferences file's port and model folders into settings.json, once", async () => {
    const settings = settingsIn();
    const backend = { store: { port: 12345, models_dirs: ["/Volumes/models"], launch_at_login: true } };
    expect(await moveServerPreferences(backend, settings)).toEqual({
      port: 12345,
      models_dirs: ["/Volumes/models"],
    });
    expect(await settings.get()).toMatchObject({ port: 12345, models_dirs: ["/Volumes/models"] });
    expect(backend.store).toEqual({ launch_at_login: true });
    expect(new AppPreferencesStore(backend).get()).toEqual({ launch_at_login: true, serve_on_launch: true });

    // The dashboard changes the port afterwards: nothing in the preferences overrides it again.
    await settings.update({ port: 23456 });
    expect(await moveServerPreferences(backend, settings)).toEqual({});
    expect((await settings.get()).port).toBe(23456);
  });

  it("drops invalid leftovers and keeps settings.json as it was", async () => {
    const settings = settingsIn();
    await settings.update({ port: 11500 });
    const backend = {
      store: { port: "eleven", models_dirs: [], serve_on_launch: false } as Record<string, unknown>,
    };
    expect(await moveServerPreferences(backend, settings)).toEqual({});
    expect((await settings.get()).port).toBe(11500);
    expect(backend.store).toEqual({ serve_on_launch: false });
  });
});
