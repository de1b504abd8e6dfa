import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compileMain } from "../../../scripts/compileMain.js";
import { mainBuildState } from "../../../scripts/mainBuildState.js";

/** A throwaway project shaped like ours; the compiler is a fake that writes `.js` files. */
let project: string;
const write = (relative: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
  fs.writeFileSync(path.join(project, relative), text);
};
const out = (relative: string) => path.join(project, "dist/main", relative);
const emit = (files: string[]) => (outDir: string) => {
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true });
    fs.writeFileSync(path.join(outDir, file), "export {};\n");
  }
  return true;
};
const settle = () => {
  const until = Date.now() + 30;
  while (Date.now() < until); // mtimes have millisecond resolution: let the clock move on
};

beforeEach(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "perch-compile-"));
  write("package.json", "{}\n");
  write("src-main/cli/main.ts", "export {};\n");
  write("src-main/evals/scoring/sandbox.py", "print('hi')\n");
  settle();
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

describe("compileMain", () => {
  it("builds, copies the run-time assets and reads fresh", () => {
    expect(mainBuildState(project)).toBe("missing");
    expect(compileMain(project, emit(["src-main/cli/main.js"]))).toBe(true);
    expect(fs.existsSync(out("src-main/cli/main.js"))).toBe(true);
    expect(fs.readFileSync(out("src-main/evals/scoring/sandbox.py"), "utf8")).toBe("print('hi')\n");
    expect(mainBuildState(project)).toBe("fresh");
  });

  it("reads stale when a source is saved while the compiler runs", () => {
    const saveDuringCompile = (outDir: string) => {
      settle();
      write("src-main/cli/main.ts", "export const changed = true;\n");
      settle();
      return emit(["src-main/cli/main.js"])(outDir);
    };
    expect(compileMain(project, saveDuringCompile)).toBe(true);
    expect(mainBuildState(project)).toBe("stale");
  });

  it("leaves no output of a deleted source behind", () => {
    compileMain(project, emit(["src-main/cli/main.js", "src-main/cli/removed.js"]));
    expect(fs.existsSync(out("src-main/cli/removed.js"))).toBe(true);
    compileMain(project, emit(["src-main/cli/main.js"]));
    expect(fs.existsSync(out("src-main/cli/removed.js"))).toBe(false);
    expect(fs.readdirSync(path.join(project, "dist"))).toEqual(["main"]);
  });

  it("leaves no fresh-looking stamp when the compiler fails", () => {
    compileMain(project, emit(["src-main/cli/main.js"]));
    write("src-main/cli/main.ts", "broken(\n");
    expect(compileMain(project, () => false)).toBe(false);
    expect(mainBuildState(project)).toBe("missing");
    expect(fs.readdirSync(path.join(project, "dist"))).toEqual(["main"]);
  });
});
