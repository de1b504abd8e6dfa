import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelCatalog } from "../../../src-main/catalog/ModelCatalog.js";
import { ModelSettingsStore } from "../../../src-main/settings/ModelSettingsStore.js";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";
import { writeTinyGguf } from "../../helpers/writeTinyGguf.js";

// The boundary a full disk fails at: the atomic file write. Every write is counted; while
// `disk.full`, it fails as a full disk does.
const disk = vi.hoisted(() => ({ full: false, writes: [] as string[] }));
vi.mock("write-file-atomic", async (importOriginal) => {
  const real = (await importOriginal()) as { default: (...args: unknown[]) => Promise<void> };
  return {
    default: async (file: string, ...rest: unknown[]) => {
      disk.writes.push(path.basename(file));
      if (disk.full) {
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
      return real.default(file, ...rest);
    },
  };
});

let base: string;
const interval = ModelCatalog.missRescanIntervalMs;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-catalog-full-"));
  disk.full = false;
  disk.writes = [];
  ModelCatalog.missRescanIntervalMs = 0;
});
afterEach(async () => {
  ModelCatalog.missRescanIntervalMs = interval;
  await fs.rm(base, { recursive: true, force: true });
});

function open() {
  const health = new HealthRegistry();
  const catalog = new ModelCatalog({
    basePath: base,
    modelsDirs: () => [path.join(base, "models")],
    settings: new ModelSettingsStore({ basePath: base }),
    health,
  });
  return { catalog, health };
}

describe("the model catalog's lookup of an unknown name", () => {
  it("does not rewrite model_catalog.json when the rescan finds nothing new", async () => {
    await writeTinyGguf(path.join(base, "models", "first.gguf"));
    const { catalog } = open();
    await catalog.list();
    expect(disk.writes).toEqual(["model_catalog.json"]);
    for (const name of ["nonexistent", "other"]) {
      await expect(catalog.resolveModel(name)).rejects.toMatchObject({ code: "model_not_found" });
      await expect(catalog.get(name)).rejects.toMatchObject({ code: "model_not_found" });
    }
    expect(disk.writes).toEqual(["model_catalog.json"]);
  });

  it("on a full disk is still model_not_found; the failed rescan is a health warning until one works", async () => {
    await writeTinyGguf(path.join(base, "models", "first.gguf"));
    const { catalog, health } = open();
    await catalog.list();
    // A new file makes the rescan write, and the disk is full.
    await writeTinyGguf(path.join(base, "models", "second.gguf"));
    disk.full = true;
    await expect(catalog.resolveModel("nonexistent")).rejects.toMatchObject({ code: "model_not_found" });
    await expect(catalog.get("nonexistent")).rejects.toMatchObject({ code: "model_not_found" });
    expect(await health.list()).toContainEqual(
      expect.objectContaining({ code: "storage_error", message: expect.stringMatching(/rescanned.*ENOSPC/) }),
    );
    // A known model still resolves.
    expect((await catalog.resolveModel("first")).id).toBe("first");

    disk.full = false;
    expect((await catalog.resolveModel("second")).id).toBe("second");
    expect((await health.list()).filter((warning) => warning.code === "storage_error")).toEqual([]);
  });
});
