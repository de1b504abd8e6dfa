import type { Command } from "commander";
import type { PerchConfig } from "../settings/PerchConfig.js";

export interface GlobalOptionValues {
  basePath?: string;
  modelsDir?: string[];
}

/**
 * `--base-path` and `--models-dir`, shared by every command that opens the core. `--models-dir`
 * takes one value (repeat it, or separate folders with commas): a variadic option swallowed the
 * command's own argument (`perch pull --models-dir DIR owner/repo` lost its model).
 */
export function addGlobalOptions(command: Command): Command {
  return command
    .option("--base-path <dir>", "folder for Perch's files (default: $PERCH_HOME or ~/.perch)")
    .option(
      "--models-dir <dir>",
      "folder to scan for .gguf models (default: <base>/models); repeat it or separate folders with commas for several",
      collectFolders,
    );
}

/** Every `--models-dir` given, in order, each split at commas. */
function collectFolders(value: string, previous: string[] | undefined): string[] {
  const folders = value
    .split(",")
    .map((folder) => folder.trim())
    .filter((folder) => folder.length > 0);
  return [...(previous ?? []), ...folders];
}

/** The `--models-dir` options that name `folders` (for a command line Perch suggests). */
export function modelsDirArguments(folders: readonly string[]): string {
  return folders.map((folder) => `--models-dir ${folder}`).join(" ");
}

export function configFromOptions(options: GlobalOptionValues): Partial<PerchConfig> {
  return {
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(options.modelsDir && options.modelsDir.length > 0 ? { modelsDirs: options.modelsDir } : {}),
  };
}
