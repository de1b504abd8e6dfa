import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";
import { moveAsideCorrupt } from "../../../src-main/storage/moveAsideCorrupt.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "perch-health-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("HealthRegistry", () => {
  it("drops a corrupt-file warning once the moved-aside file is deleted", async () => {
    const health = new HealthRegistry();
    const file = path.join(dir, "settings.json");
    await fs.writeFile(file, "{broken");
    const aside = await moveAsideCorrupt(file, "not JSON", health);
    expect(await health.list()).toEqual([expect.objectContaining({ code: "corrupt_file", path: aside })]);
    await fs.rm(aside);
    expect(await health.list()).toEqual([]);
  });
});
