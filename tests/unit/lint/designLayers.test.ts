import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { layers } from "../../../scripts/eslint/layers.js";
import { repoRoot } from "../../helpers/fixtureDatasets.js";

describe("DESIGN.md's layer table", () => {
  it("names every layer the lint rule knows, spelled as the rule spells it", () => {
    const design = fs.readFileSync(path.join(repoRoot, "DESIGN.md"), "utf8");
    const table = design.slice(design.indexOf("## Layers"), design.indexOf("## Contracts"));
    const missing = layers
      .map((row: { layer: string }) => row.layer)
      .filter((layer: string) => !table.includes(`\`${layer}\``));
    expect(missing).toEqual([]);
  });
});
