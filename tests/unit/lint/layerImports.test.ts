import path from "node:path";
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { perchPlugin } from "../../../scripts/eslint/layerImports.js";
import { layers } from "../../../scripts/eslint/layers.js";
import { repoRoot } from "../../helpers/fixtureDatasets.js";

/** Lints one virtual file with the real rule and the real layer table, as `npm run lint` does. */
function lint(file: string, code: string, table = layers) {
  const linter = new Linter({ cwd: repoRoot });
  return linter
    .verify(
      code,
      [
        {
          files: ["**/*.ts", "**/*.tsx"],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { perch: perchPlugin },
          rules: {
            "perch/layer-imports": [
              "error",
              { roots: ["src-main", "src-shared", "src-renderer"], layers: table },
            ],
          },
        },
      ],
      path.join(repoRoot, file),
    )
    .map((message) => message.message);
}

describe("perch/layer-imports", () => {
  it("fails a deliberate leak: a domain importing a server internal", () => {
    const messages = lint(
      "src-main/catalog/leak.ts",
      'import type { X } from "../server/admin/adminParams.js";\n',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(
      "Layer 'src-main/catalog' may not import 'src-main/server/admin/adminParams.js'",
    );
  });

  it("fails a domain importing the composition root, in every import form", () => {
    const code = [
      'import { createCore } from "../core/createCore.js";',
      'export { createCore as again } from "../core/createCore.js";',
      'export * from "../core/createCore.js";',
      'const later = () => import("../core/createCore.js");',
      'type Core = import("../core/createCore.js").Core;',
      "export { later };",
      "export type { Core };",
    ].join("\n");
    expect(lint("src-main/evals/leak.ts", code)).toHaveLength(5);
  });

  it("fails the base library reaching up into a domain", () => {
    expect(
      lint("src-main/base/leak.ts", 'import { Scheduler } from "../scheduler/Scheduler.js";\n'),
    ).toHaveLength(1);
  });

  it("fails the renderer and shared code importing src-main", () => {
    expect(
      lint("src-renderer/leak.ts", 'import { x } from "../src-main/base/PerchError.js";\n'),
    ).toHaveLength(1);
    expect(
      lint("src-shared/contracts/leak.ts", 'import { x } from "../../src-main/base/PerchError.js";\n'),
    ).toHaveLength(1);
  });

  it("passes imports the table allows, inside a layer and across", () => {
    const code = [
      'import { PerchError } from "../base/PerchError.js";',
      'import { Scheduler } from "../scheduler/Scheduler.js";',
      'import { x } from "./sibling.js";',
      'import { y } from "../../src-shared/contracts/errors.js";',
      'import { z } from "zod";',
    ].join("\n");
    expect(lint("src-main/evals/fine.ts", code)).toEqual([]);
  });

  it("allows one named entry file of another layer without opening the whole layer", () => {
    expect(lint("src-main/app/fine.ts", 'import { buildServer } from "../server/buildServer.js";\n')).toEqual(
      [],
    );
    expect(lint("src-main/app/leak.ts", 'import { x } from "../server/registerRoutes.js";\n')).toHaveLength(
      1,
    );
  });

  it("fails a source file in a folder that has no row in the table", () => {
    const messages = lint("src-main/newFolder/thing.ts", "export const thing = 1;\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("is in no layer");
  });

  it("leaves files outside the checked roots alone", () => {
    expect(
      lint("tests/unit/anything.ts", 'import { createCore } from "../../src-main/core/createCore.js";\n'),
    ).toEqual([]);
  });

  it("covers every folder that holds source today", async () => {
    const fs = await import("node:fs");
    const folders = ["src-main", "src-shared"].flatMap((root) =>
      fs
        .readdirSync(path.join(repoRoot, root), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${root}/${entry.name}`),
    );
    const rows = new Set(layers.map((row) => row.layer));
    expect(folders.filter((folder) => !rows.has(folder))).toEqual([]);
  });
});
