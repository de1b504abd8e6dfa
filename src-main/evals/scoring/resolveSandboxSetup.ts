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
  // The given Python first; the others only where it cannot run a mode the others can. The
  // isolation comes first: a root user's pyenv Python under /root cannot run as the unprivileged
  // uid of linux-root, and must not quietly turn the sandbox into the weaker linux-user.
  const others = () => pythonExecutables().filter((python) => python !== options.python);
  const modes = options.mode ? [options.mode] : modesToTry();
  const unshare = findExecutable("unshare") ?? findExecutable("unshare", "/usr/bin:/bin");
  const reasons: string[] = [];
  let fallbacks: string[] | undefined;
  for (const mode of modes) {
    if (mode.startsWith("linux-") && !unshare) {
      reasons.push(`${mode}: unshare not found`);
      continue;
    }
    const pythons = options.python
      ? [options.python, ...(mode === "plain" ? [] : (fallbacks ??= others()))]
      : (fallbacks ??= pythonExecutables());
    if (pythons.length === 0)
      throw new PerchError("internal_error", "python3 was not found: code scoring needs it");
    for (const python of pythons) {
      const setup: SandboxSetup = { mode, python, unshare: unshare ?? undefined, runAsUid: options.runAsUid };
      const problem = await probeSandboxSetup(setup);
      if (!problem) {
        if (mode === "plain") log().warn({ python, reasons }, "scoring sandbox: no OS isolation available");
        else if (reasons.length > 0)
          log().warn({ mode, python, reasons }, "scoring sandbox ready, after setups that did not work");
        else log().info({ mode, python }, "scoring sandbox ready");
        return setup;
      }
      reasons.push(`${mode} with ${python}: ${problem}`);
    }
  }
  throw new PerchError("internal_error", `no working scoring sandbox: ${reasons.join("; ")}`);
}
