import type { Core } from "../core/createCore.js";
import { setRootLogLevel } from "../base/createLogger.js";
import { configFromOptions, type GlobalOptionValues } from "./globalOptions.js";

/**
 * Opens the core over the base path when no server runs. Imported lazily so that light commands
 * (`perch --version`, `perch logs`, talking to a server) never load node-llama-cpp.
 */
export async function openCore(options: GlobalOptionValues): Promise<Core> {
  setRootLogLevel("warn");
  const { createCore } = await import("../core/createCore.js");
  return createCore(configFromOptions(options));
}
