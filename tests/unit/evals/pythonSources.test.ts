// Perch's own Python (the sandbox zygote, the code analyzer) lives in real .py files under src-main:
// each is compiled by python itself here, and the helpers in them are unit-tested by tests/python/.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { pythonCandidates } from "../../../src-main/evals/scoring/pythonCandidates.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const python = pythonCandidates()[0];
// Bytecode goes to a temp folder, never into src-main.
const cache = fs.mkdtempSync(path.join(os.tmpdir(), "perch-pycache-"));
const env = {
  PATH: process.env.PATH,
  LANG: "C.UTF-8",
  PYTHONPYCACHEPREFIX: cache,
  PYTHONDONTWRITEBYTECODE: "1",
};

function pythonFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return pythonFiles(full);
    return entry.name.endsWith(".py") ? [path.relative(root, full)] : [];
  });
}

function pyCompile(file: string) {
  return spawnSync(python, ["-m", "py_compile", file], { cwd: root, env, encoding: "utf8" });
}

afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

describe("Perch's Python sources", () => {
  it("every .py under src-main compiles (python3 -m py_compile)", () => {
    const files = pythonFiles(path.join(root, "src-main"));
    expect(files).toEqual(
      expect.arrayContaining([
        "src-main/evals/scoring/sandboxZygote.py",
        "src-main/evals/benchmarks/code/codeAnalyzer.py",
      ]),
    );
    for (const file of files) {
      const result = pyCompile(file);
      expect(result.stderr, file).toBe("");
      expect(result.status, file).toBe(0);
    }
  });

  it("the compile check fails on a file python cannot compile", () => {
    const broken = path.join(cache, "broken.py");
    fs.writeFileSync(broken, "def f(:\n    pass\n");
    const result = pyCompile(broken);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("SyntaxError");
  });

  it("the helpers pass their Python unit tests (tests/python, python3 -m unittest)", () => {
    const result = spawnSync(
      python,
      ["-m", "unittest", "discover", "-s", "tests/python", "-p", "test_*.py"],
      {
        cwd: root,
        env,
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(result.stderr).toMatch(/\nOK\b/);
    expect(result.status).toBe(0);
    const ran = Number(/Ran (\d+) tests?/.exec(result.stderr)?.[1] ?? 0);
    expect(ran).toBeGreaterThanOrEqual(27);
  });
});
