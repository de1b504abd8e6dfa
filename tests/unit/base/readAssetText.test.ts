import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readAssetText } from "../../../src-main/base/readAssetText.js";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "perch-asset-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe("readAssetText", () => {
  it("reads a file relative to the calling module", () => {
    fs.mkdirSync(path.join(folder, "checkout/evals"), { recursive: true });
    fs.writeFileSync(path.join(folder, "checkout/evals/helper.py"), "print('hi')\n");
    const moduleUrl = pathToFileURL(path.join(folder, "checkout/evals/Runner.js")).href;
    expect(readAssetText("./helper.py", moduleUrl)).toBe("print('hi')\n");
  });

  it("reads the app.asar.unpacked copy when the module is inside the packaged app's archive", () => {
    const unpacked = path.join(folder, "resources/app.asar.unpacked/dist/main");
    fs.mkdirSync(unpacked, { recursive: true });
    fs.writeFileSync(path.join(unpacked, "corpus.txt"), "unpacked");
    const moduleUrl = pathToFileURL(path.join(folder, "resources/app.asar/dist/main/module.js")).href;
    expect(readAssetText("./corpus.txt", moduleUrl)).toBe("unpacked");
  });

  it("a missing file is Perch's own failure (internal_error), naming the file", () => {
    const moduleUrl = pathToFileURL(path.join(folder, "module.js")).href;
    expect(() => readAssetText("./missing.py", moduleUrl)).toThrow(
      expect.objectContaining({ code: "internal_error", message: expect.stringContaining("missing.py") }),
    );
  });
});
