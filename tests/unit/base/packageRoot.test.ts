import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src-main/base/packageRoot.js";
import { repoRoot } from "../../helpers/fixtureDatasets.js";

describe("packageRoot", () => {
  it("finds Perch's own folder and version from the sources", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(packageRoot()).toEqual({ dir: repoRoot, version: pkg.version });
  });
});
