import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { findExecutable } from "./findExecutable.js";

/**
 * Python interpreters to try, best first: the `python3` on PATH resolved to its real executable
 * (a pyenv shim needs the user's environment, which checks do not get), then the usual system
 * locations, which an unprivileged sandbox uid can read when the user's own install cannot.
 */
export function pythonCandidates(): string[] {
  const onPath = findExecutable("python3");
  const real = onPath
    ? spawnSync(onPath, ["-c", "import sys; print(sys.executable)"], {
        encoding: "utf8",
        timeout: 10_000,
      }).stdout?.trim()
    : undefined;
  const list = [real || onPath, "/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"];
  return [...new Set(list.filter((item): item is string => Boolean(item) && fs.existsSync(item as string)))];
}
