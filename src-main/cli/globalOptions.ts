import type { Command } from "commander";
import type { PerchConfig } from "../settings/PerchConfig.js";

export interface GlobalOptionValues {
  basePath?: string;
  modelsDir?: string[];
}

/** `--base-path` and `--models-dir`, shared by every command that opens the core. */
export function addGlobalOptions(command: Command): Command {
  return command
    .option("--base-path <dir>", "folder for Perch's files (default: $PERCH_HOME or ~/.perch)")
    .option("--models-dir <dir...>", "folder(s) to scan for .gguf models (default: <base>/models)");
}

export function configFromOptions(options: GlobalOptionValues): Partial<PerchConfig> {
  return {
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(options.modelsDir && options.modelsDir.length > 0 ? { modelsDirs: options.modelsDir } : {}),
  };
}
