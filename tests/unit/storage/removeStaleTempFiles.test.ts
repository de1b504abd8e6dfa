import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeStaleTempFiles } from "../../../src-main/storage/removeStaleTempFiles.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("removeStaleTempFiles", () => {
  it("removes only old write-file-atomic leftovers and never a data file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-temp-"));
    dirs.push(dir);
    const old = Date.now() / 1000 - 3600;
    const write = (name: string, aged: boolean) => {
      fs.writeFileSync(path.join(dir, name), "{");
      if (aged) fs.utimesSync(path.join(dir, name), old, old);
    };
    write("settings.json", true);
    write("settings.json.123456789", true);
    write("model_catalog.json.42", false);
    write("notes.txt.77", true);
    write("acc-1.json.corrupt-2026", true);
    const removed = await removeStaleTempFiles([dir, path.join(dir, "missing")]);
    expect(removed.map((file) => path.basename(file))).toEqual(["settings.json.123456789"]);
    expect(fs.readdirSync(dir).sort()).toEqual([
      "acc-1.json.corrupt-2026",
      "model_catalog.json.42",
      "notes.txt.77",
      "settings.json",
    ]);
  });
});
