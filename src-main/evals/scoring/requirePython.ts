import { PerchError } from "../../base/PerchError.js";
import { findPython, pythonInstallHint, type FindPythonOptions, type PythonInstall } from "./findPython.js";

/** The part of settings.json that remembers the interpreter (`SettingsStore` fits). */
export interface PythonSettings {
  get(): Promise<{ python_path: string | null }>;
  update(patch: { python_path: string }): Promise<unknown>;
}

/**
 * The Python code scoring will use: the one remembered in settings.json while it still works,
 * else the best one found (then remembered). Throws `python_missing`, with how to install one,
 * when this machine has none — before a code benchmark starts, not as failed items.
 */
export async function requirePython(
  settings?: PythonSettings,
  options: Omit<FindPythonOptions, "remembered"> = {},
): Promise<PythonInstall> {
  const remembered = settings ? (await settings.get()).python_path : null;
  const found = findPython({ ...options, remembered });
  if (!found) {
    const platform = options.platform ?? process.platform;
    throw new PerchError(
      "python_missing",
      `Code benchmarks need Python 3.8 or newer, and none was found. ${pythonInstallHint(platform)}`,
      { details: { install: pythonInstallHint(platform) } },
    );
  }
  if (settings && found.executable !== remembered) await settings.update({ python_path: found.executable });
  return found;
}
