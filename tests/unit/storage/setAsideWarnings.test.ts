import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createStores } from "../../../src-main/core/createStores.js";
import { JsonFile } from "../../../src-main/storage/JsonFile.js";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";
import { z } from "zod";

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("files moved aside as corrupt, in the health warnings", () => {
  it("are reported by a later process too (a CLI command found the damage), until deleted", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-aside-"));
    folders.push(base);
    // What `perch models list` left: the catalog it could not read, moved aside.
    const aside = path.join(base, "model_catalog.json.corrupt-2026-12-04T05-10-00-000Z");
    fs.writeFileSync(aside, '{"version":1,"models":{');
    const { health } = createStores({ basePath: base });
    const warnings = await health.list();
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "corrupt_file",
        path: aside,
        message: expect.stringContaining(
          `${path.join(base, "model_catalog.json")} could not be read on 2026-12-04T05:10:00.000Z`,
        ),
      }),
    ]);
    fs.rmSync(aside);
    expect(await health.list()).toEqual([]);
  });

  it("name a file moved aside by this process once", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-aside-"));
    folders.push(base);
    const health = new HealthRegistry();
    const { setAsideWarnings } = await import("../../../src-main/storage/setAsideWarnings.js");
    health.addProvider(() => setAsideWarnings([base]));
    fs.writeFileSync(path.join(base, "state.json"), "{ torn");
    const file = new JsonFile({
      path: path.join(base, "state.json"),
      schema: z.object({}),
      empty: () => ({}),
      health,
    });
    await file.read();
    const warnings = await health.list();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain("invalid JSON");
  });
});
