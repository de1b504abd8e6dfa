import { createLogger } from "../../base/createLogger.js";
import { PerchError } from "../../base/PerchError.js";
import { findExecutable } from "./findExecutable.js";
import { probeSandboxSetup } from "./probeSandboxSetup.js";
import { pythonExecutables } from "./findPython.js";
import type { SandboxMode, SandboxSetup } from "./SandboxMode.js";

/** Looked up when used: the CLI lowers the log level after modules are loaded. */
const log = () => createLogger("evals");

export interface SandboxSetupOptions {
  /** The python3 to run checks with. Defaults to the first of `pythonCandidates()` that works. */
  python?: string;
  /** Force one mode (fails if it does not work here). Defaults to the strongest that works. */
  mode?: SandboxMode;
  /** The uid checks run as when Perch runs as root. Defaults to `65534`. */
  runAsUid?: number;
}

/** Strongest isolation first, as far as this platform and user can have it. */
function modesToTry(): SandboxMode[] {
  if (process.platform === "linux") {
    return process.getuid?.() === 0 ? ["linux-root", "linux-user", "plain"] : ["linux-user", "plain"];
  }
  if (process.platform === "darwin") return ["darwin", "plain"];
  return ["plain"];
}

const cache = new Map<string, Promise<SandboxSetup>>();

/**
 * Finds the strongest sandbox that really works on this machine (each candidate is probed by
 * running a check that tries the network and a host write). Cached per options.
 */
export function resolveSandboxSetup(options: SandboxSetupOptions = {}): Promise<SandboxSetup> {
  const key = JSON.stringify(options);
  let found = cache.get(key);
  if (!found) {
    found = probeAll(options);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

async function probeAll(options: SandboxSetupOptions): Promise<SandboxSetup> {
  const pythons = options.python ? [options.python] : pythonExecutables();
  if (pythons.length === 0)
    throw new PerchError("internal_error", "python3 was not found: code scoring needs it");
  const unshare = findExecutable("unshare") ?? findExecutable("unshare", "/usr/bin:/bin");
  const reasons: string[] = [];
  for (const mode of options.mode ? [options.mode] : modesToTry()) {
    if (mode.startsWith("linux-") && !unshare) {
      reasons.push(`${mode}: unshare not found`);
      continue;
    }
    for (const python of pythons) {
      const setup: SandboxSetup = { mode, python, unshare: unshare ?? undefined, runAsUid: options.runAsUid };
      const problem = await probeSandboxSetup(setup);
      if (!problem) {
        if (mode === "plain") log().warn({ python, reasons }, "scoring sandbox: no OS isolation available");
        else log().info({ mode, python }, "scoring sandbox ready");
        return setup;
      }
      reasons.push(`${mode} with ${python}: ${problem}`);
    }
  }
  throw new PerchError("internal_error", `no working scoring sandbox: ${reasons.join("; ")}`);
}
