import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where a Python was found; the order of `pythonSearchOrder` is best first. */
export type PythonSource = "remembered" | "path" | "homebrew" | "python.org" | "pyenv" | "system";

export interface PythonCandidate {
  path: string;
  source: PythonSource;
}

export interface PythonInstall extends PythonCandidate {
  /** `sys.executable` (a symlink or shim resolved to the real interpreter). */
  executable: string;
  /** `major.minor.micro`. */
  version: string;
}

export interface FindPythonOptions {
  /** The interpreter remembered in settings.json (`python_path`), tried first. Defaults to none. */
  remembered?: string | null;
  /** Defaults to `process.env` (a Finder-launched app has only `/usr/bin:/bin:/usr/sbin:/sbin`). */
  env?: NodeJS.ProcessEnv;
  /** Defaults to `process.platform`. */
  platform?: NodeJS.Platform;
  /** Runs a program without a shell; tests pass fakes. Defaults to `spawnSync`. */
  run?: (file: string, args: string[]) => { status: number | null; stdout: string };
}

/** Python 3.8+: what the scoring sandbox's zygote needs. */
const minimumMinor = 8;
const macShim = "/usr/bin/python3";
const frameworkVersions = "/Library/Frameworks/Python.framework/Versions";

const defaultRun: NonNullable<FindPythonOptions["run"]> = (file, args) => {
  const result = spawnSync(file, args, {
    encoding: "utf8",
    timeout: 10_000,
    stdio: ["ignore", "pipe", "ignore"],
  });
  return { status: result.status, stdout: result.stdout ?? "" };
};

const isExecutable = (file: string): boolean => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Sub-folders named like versions, newest first (`3.12.1` before `3.9.6`). */
function versionFolders(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => /^3\.\d+/.test(name));
  } catch {
    return [];
  }
  const key = (name: string) => name.split(/[^\d]+/).map(Number);
  return names.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++)
      if ((y[i] ?? 0) !== (x[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
    return 0;
  });
}

/**
 * On macOS `/usr/bin/python3` is a stub until the Command Line Tools are installed: running it
 * then opens the "install developer tools" dialog instead of Python. `xcode-select -p` exits 0
 * only when a developer directory is set up, so only then is the stub a real Python.
 */
function macShimIsReal(run: NonNullable<FindPythonOptions["run"]>): boolean {
  return run("/usr/bin/xcode-select", ["-p"]).status === 0;
}

/**
 * Where to look, best first, as the places exist on this machine: the remembered interpreter,
 * `python3` on PATH, Homebrew (Apple Silicon, then Intel), the python.org framework, pyenv's
 * versions, then the system's. The macOS stub is left out unless the Command Line Tools are there.
 */
export function pythonSearchOrder(options: FindPythonOptions = {}): PythonCandidate[] {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const run = options.run ?? defaultRun;
  const home = env.HOME ?? os.homedir();
  const list: PythonCandidate[] = [];
  if (options.remembered) list.push({ path: options.remembered, source: "remembered" });
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir) list.push({ path: path.join(dir, "python3"), source: "path" });
  }
  if (platform === "darwin") {
    list.push({ path: "/opt/homebrew/bin/python3", source: "homebrew" });
    list.push({ path: "/usr/local/bin/python3", source: "homebrew" });
    list.push({ path: `${frameworkVersions}/Current/bin/python3`, source: "python.org" });
    for (const version of versionFolders(frameworkVersions)) {
      list.push({ path: `${frameworkVersions}/${version}/bin/python3`, source: "python.org" });
    }
  } else {
    list.push({ path: "/usr/local/bin/python3", source: "system" });
  }
  const pyenvVersions = path.join(env.PYENV_ROOT ?? path.join(home, ".pyenv"), "versions");
  for (const version of versionFolders(pyenvVersions)) {
    list.push({ path: path.join(pyenvVersions, version, "bin", "python3"), source: "pyenv" });
  }
  list.push({ path: macShim, source: "system" });

  const seen = new Set<string>();
  let shimChecked: boolean | undefined;
  return list.filter((candidate) => {
    if (seen.has(candidate.path) || !isExecutable(candidate.path)) return false;
    seen.add(candidate.path);
    if (platform === "darwin" && candidate.path === macShim) return (shimChecked ??= macShimIsReal(run));
    return true;
  });
}

/** Runs a candidate once: its real executable and version, or null if it is not a Python 3.8+. */
export function probePython(candidate: PythonCandidate, run = defaultRun): PythonInstall | null {
  const script = "import sys; print(sys.executable); print('%d.%d.%d' % sys.version_info[:3])";
  const result = run(candidate.path, ["-I", "-c", script]);
  if (result.status !== 0) return null;
  const [executable, version] = result.stdout.trim().split("\n");
  const match = /^3\.(\d+)\.\d+$/.exec(version ?? "");
  if (!match || Number(match[1]) < minimumMinor) return null;
  return { ...candidate, executable: executable || candidate.path, version };
}

/** The first working Python 3.8+ in `pythonSearchOrder`, or null when this machine has none. */
export function findPython(options: FindPythonOptions = {}): PythonInstall | null {
  for (const candidate of pythonSearchOrder(options)) {
    const found = probePython(candidate, options.run);
    if (found) return found;
  }
  return null;
}

/** What to tell a user who has no Python 3, for their platform. */
export function pythonInstallHint(platform: NodeJS.Platform = process.platform): string {
  if (platform === "darwin") {
    return "Install Python 3 with Homebrew (`brew install python`), from https://www.python.org/downloads/macos/, or with the Command Line Tools (`xcode-select --install`), then start the run again.";
  }
  return "Install Python 3 with your package manager (for example `sudo apt install python3`) or from https://www.python.org/downloads/, then start the run again.";
}

/** Every working Python 3.8+, best first, as real executables: what the sandbox probes try. */
export function pythonExecutables(options: FindPythonOptions = {}): string[] {
  const found = pythonSearchOrder(options).map(
    (candidate) => probePython(candidate, options.run)?.executable,
  );
  return [...new Set(found.filter((executable): executable is string => Boolean(executable)))];
}
