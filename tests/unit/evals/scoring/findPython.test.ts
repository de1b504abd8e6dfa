import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  findPython,
  pythonExecutables,
  pythonSearchOrder,
  type FindPythonOptions,
} from "../../../../src-main/evals/scoring/findPython.js";
import { requirePython } from "../../../../src-main/evals/scoring/requirePython.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "perch-find-python-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A fake interpreter: a shell script answering the probe as a Python of `version` would. */
function fakePython(file: string, version: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho "${file}"\necho "${version}"\n`, { mode: 0o755 });
  return file;
}

/** Runs the fakes for real; `xcode-select -p` answers as a Mac with or without Command Line Tools. */
const runWith =
  (commandLineTools: boolean): NonNullable<FindPythonOptions["run"]> =>
  (file, args) => {
    if (file === "/usr/bin/xcode-select") return { status: commandLineTools ? 0 : 2, stdout: "" };
    if (file === "/usr/bin/python3") return { status: 0, stdout: "/usr/bin/python3\n3.9.6\n" };
    const result = spawnSync(file, args, { encoding: "utf8" });
    return { status: result.status, stdout: result.stdout ?? "" };
  };

describe("findPython", () => {
  const home = path.join(root, "home");
  const pyenv = fakePython(path.join(home, ".pyenv/versions/3.11.4/bin/python3"), "3.11.4");
  fakePython(path.join(home, ".pyenv/versions/3.9.1/bin/python3"), "3.9.1");
  const emptyBin = path.join(root, "empty-bin");
  fs.mkdirSync(emptyBin, { recursive: true });
  // What Finder gives an app: the system folders only (here a folder with no python3 in it).
  const finderEnv = { PATH: emptyBin, HOME: home };

  it("skips the macOS python3 stub without Command Line Tools and finds pyenv's newest version", () => {
    const options = { env: finderEnv, platform: "darwin" as const, run: runWith(false) };
    expect(pythonSearchOrder(options).map((candidate) => candidate.path)).not.toContain("/usr/bin/python3");
    expect(findPython(options)).toEqual({
      path: pyenv,
      source: "pyenv",
      executable: pyenv,
      version: "3.11.4",
    });
  });

  it("takes the stub as a real Python once xcode-select says the tools are installed", () => {
    if (!fs.existsSync("/usr/bin/python3")) return;
    const paths = pythonSearchOrder({ env: finderEnv, platform: "darwin", run: runWith(true) }).map(
      (c) => c.path,
    );
    expect(paths.at(-1)).toBe("/usr/bin/python3");
  });

  it("prefers PATH, skips a Python 2 and a broken one, and tries the remembered one first", () => {
    const bin = path.join(root, "bin");
    fakePython(path.join(bin, "python3"), "2.7.18");
    const broken = path.join(root, "broken/python3");
    fs.mkdirSync(path.dirname(broken), { recursive: true });
    fs.writeFileSync(broken, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    const good = fakePython(path.join(root, "good/python3"), "3.12.2");
    const env = { PATH: [bin, path.dirname(broken), path.dirname(good)].join(path.delimiter), HOME: home };
    expect(findPython({ env, platform: "darwin", run: runWith(false) })?.path).toBe(good);
    expect(findPython({ env, platform: "darwin", run: runWith(false), remembered: pyenv })?.source).toBe(
      "remembered",
    );
    expect(findPython({ env, platform: "darwin", run: runWith(false), remembered: broken })?.path).toBe(good);
    expect(pythonExecutables({ env, platform: "darwin", run: runWith(false) })).toEqual([
      good,
      pyenv,
      path.join(home, ".pyenv/versions/3.9.1/bin/python3"),
    ]);
  });

  it("finds none on a Mac with no Python, and requirePython says how to install one", async () => {
    const bare = {
      env: { PATH: emptyBin, HOME: path.join(root, "nobody") },
      platform: "darwin" as const,
      run: runWith(false),
    };
    expect(findPython(bare)).toBeNull();
    await expect(requirePython(undefined, bare)).rejects.toMatchObject({
      code: "python_missing",
      status: 409,
      message: expect.stringContaining("brew install python"),
    });
  });

  it("remembers the Python it found in settings, and keeps a remembered one that works", async () => {
    let stored: string | null = null;
    const settings = {
      get: async () => ({ python_path: stored }),
      update: async (patch: { python_path: string }) => void (stored = patch.python_path),
    };
    const options = { env: finderEnv, platform: "darwin" as const, run: runWith(false) };
    expect((await requirePython(settings, options)).executable).toBe(pyenv);
    expect(stored).toBe(pyenv);
    const older = path.join(home, ".pyenv/versions/3.9.1/bin/python3");
    stored = older;
    expect((await requirePython(settings, options)).executable).toBe(older);
    expect(stored).toBe(older);
  });
});
