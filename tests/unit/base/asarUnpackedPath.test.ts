import { describe, expect, it } from "vitest";
import { asarUnpackedPath } from "../../../src-main/base/asarUnpackedPath.js";

describe("asarUnpackedPath", () => {
  it("points a file URL or path inside app.asar at app.asar.unpacked", () => {
    expect(asarUnpackedPath("file:///Applications/Perch.app/Contents/Resources/app.asar/dist/w.js")).toBe(
      "file:///Applications/Perch.app/Contents/Resources/app.asar.unpacked/dist/w.js",
    );
    expect(asarUnpackedPath("C:\\Perch\\resources\\app.asar\\dist\\w.js")).toBe(
      "C:\\Perch\\resources\\app.asar.unpacked\\dist\\w.js",
    );
  });

  it("leaves other paths alone, an already unpacked one included", () => {
    for (const location of [
      "file:///home/me/perch/dist/main/w.js",
      "/x/app.asar.unpacked/dist/w.js",
      "/x/my-app.asar/w.js",
      "/x/app.asar",
    ]) {
      expect(asarUnpackedPath(location)).toBe(location);
    }
  });
});
