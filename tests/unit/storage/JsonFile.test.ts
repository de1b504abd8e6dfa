import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";
import { JsonFile } from "../../../src-main/storage/JsonFile.js";

const schema = z.object({ count: z.number().int(), names: z.array(z.string()) });
let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "perch-json-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function open(health?: HealthRegistry) {
  return new JsonFile({
    path: path.join(dir, "state.json"),
    schema,
    empty: () => ({ count: 0, names: [] }),
    health,
  });
}

describe("JsonFile", () => {
  it("starts empty without creating the file, then persists across instances", async () => {
    const file = open();
    expect(await file.read()).toEqual({ count: 0, names: [] });
    await expect(fs.access(file.path)).rejects.toThrow();
    await file.update((draft) => {
      draft.count = 1;
    });
    expect(await open().read()).toEqual({ count: 1, names: [] });
  });

  it("serializes concurrent updates: none is lost", async () => {
    const file = open();
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        file.update((draft) => {
          draft.count += 1;
          draft.names.push(`n${i}`);
        }),
      ),
    );
    const reread = await open().read();
    expect(reread.count).toBe(25);
    expect(reread.names).toHaveLength(25);
    // No temp files are left behind by the atomic writes.
    expect(await fs.readdir(dir)).toEqual(["state.json"]);
  });

  it("moves a corrupt file aside, reports it and keeps working", async () => {
    await fs.writeFile(path.join(dir, "state.json"), "{ not json");
    const health = new HealthRegistry();
    const file = open(health);
    expect(await file.read()).toEqual({ count: 0, names: [] });
    const names = await fs.readdir(dir);
    const aside = names.find((name) => name.startsWith("state.json.corrupt-"));
    expect(aside).toBeDefined();
    expect(await fs.readFile(path.join(dir, aside!), "utf8")).toBe("{ not json");
    const warnings = await health.list();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "corrupt_file", path: path.join(dir, aside!) });
    await file.update((draft) => {
      draft.count = 5;
    });
    expect(await open().read()).toMatchObject({ count: 5 });
  });

  it("with onCorrupt 'refuse' leaves a corrupt file in place and every read and update throws", async () => {
    await fs.writeFile(path.join(dir, "state.json"), "{ not json");
    const health = new HealthRegistry();
    const file = new JsonFile({
      path: path.join(dir, "state.json"),
      schema,
      empty: () => ({ count: 0, names: [] }),
      health,
      onCorrupt: "refuse",
      describeRefusal: (filePath, reason) => new Error(`refused ${filePath}: ${reason}`),
    });
    await expect(file.read()).rejects.toThrow(`refused ${path.join(dir, "state.json")}: invalid JSON`);
    await expect(file.update((draft) => ({ ...draft, count: 1 }))).rejects.toThrow("refused");
    expect(await fs.readdir(dir)).toEqual(["state.json"]);
    expect(await fs.readFile(path.join(dir, "state.json"), "utf8")).toBe("{ not json");
    expect(await health.list()).toEqual([]);
  });

  it("treats a file that fails the schema as corrupt too", async () => {
    await fs.writeFile(path.join(dir, "state.json"), JSON.stringify({ count: "many" }));
    const health = new HealthRegistry();
    expect(await open(health).read()).toEqual({ count: 0, names: [] });
    expect((await health.list())[0].message).toContain("count");
  });

  it("refuses to write a value that does not validate, leaving the file as it was", async () => {
    const file = open();
    await file.update((draft) => {
      draft.count = 2;
    });
    await expect(file.update((draft) => ({ ...draft, count: 1.5 }))).rejects.toMatchObject({
      code: "storage_error",
    });
    expect(await open().read()).toMatchObject({ count: 2 });
  });

  it("reload picks up an edit made by hand", async () => {
    const file = open();
    await file.update((draft) => {
      draft.count = 1;
    });
    await fs.writeFile(file.path, JSON.stringify({ count: 9, names: ["x"] }));
    expect(await file.read()).toMatchObject({ count: 1 });
    expect(await file.reload()).toEqual({ count: 9, names: ["x"] });
  });
});

describe("JsonFile across processes", () => {
  it("an update starts from what another process wrote since this one read the file", async () => {
    const mine = open();
    const theirs = open();
    await mine.read();
    await theirs.update((draft) => {
      draft.names.push("theirs");
    });
    await mine.update((draft) => {
      draft.names.push("mine");
    });
    expect(await open().read()).toEqual({ count: 0, names: ["theirs", "mine"] });
  });

  it("keeps this process's value and moves aside a file another process left unreadable", async () => {
    const health = new HealthRegistry();
    const file = open(health);
    await file.update((draft) => {
      draft.names.push("kept");
    });
    await fs.writeFile(file.path, "{ torn");
    await file.update((draft) => {
      draft.count = 2;
    });
    expect(await open().read()).toEqual({ count: 2, names: ["kept"] });
    expect((await fs.readdir(dir)).some((name) => name.startsWith("state.json.corrupt-"))).toBe(true);
  });

  it("loses no update when several processes update the file at once", async () => {
    const script = path.join(dir, "bump.mts");
    const jsonFile = path.resolve("src-main/storage/JsonFile.ts");
    await fs.writeFile(
      script,
      [
        `import { z } from ${JSON.stringify(createRequire(import.meta.url).resolve("zod"))};`,
        `import { JsonFile } from ${JSON.stringify(jsonFile)};`,
        `const file = new JsonFile({ path: process.argv[2], schema: z.object({ count: z.number().int(), names: z.array(z.string()) }), empty: () => ({ count: 0, names: [] }) });`,
        `for (let i = 0; i < 15; i += 1) await file.update((draft) => { draft.count += 1; draft.names.push(process.argv[3] + i); });`,
      ].join("\n"),
    );
    const { execFile } = await import("node:child_process");
    const tsx = path.resolve("node_modules/.bin/tsx");
    const target = path.join(dir, "state.json");
    await Promise.all(
      ["a", "b", "c", "d"].map(
        (name) =>
          new Promise<void>((resolve, reject) =>
            execFile(tsx, [script, target, name], { cwd: path.resolve(".") }, (error) =>
              error ? reject(error) : resolve(),
            ),
          ),
      ),
    );
    const result = await open().read();
    expect(result.count).toBe(60);
    expect(new Set(result.names).size).toBe(60);
  }, 60_000);
});
