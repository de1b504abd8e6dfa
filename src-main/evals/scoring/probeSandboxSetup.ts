import fs from "node:fs";
import path from "node:path";
import type { SandboxSetup } from "./SandboxMode.js";
import { SandboxProcess } from "./SandboxProcess.js";
import { runInSandbox } from "./runInSandbox.js";
import { createSandboxPoolDir, destroySandboxPoolDir } from "./sandboxPoolDir.js";
import { errorMessage } from "../../base/describeError.js";

const ECONNREFUSED = [61, 111];

/** A program that reports whether the isolation holds: stdlib readable, network and host writes denied. */
function probeProgram(hostDir: string): string {
  return [
    "import collections, decimal, errno, fractions, heapq, itertools, json, math, re, socket, string, typing",
    "result = {}",
    "s = socket.socket()",
    "s.settimeout(2)",
    "try:",
    "    s.connect(('127.0.0.1', 9))",
    "    result['net'] = None",
    "except OSError as error:",
    "    result['net'] = error.errno",
    "try:",
    `    open(${JSON.stringify(path.join(hostDir, "escape"))}, 'w').close()`,
    "    result['write'] = None",
    "except OSError as error:",
    "    result['write'] = error.errno",
    "print(json.dumps(result))",
  ].join("\n");
}

/**
 * Starts a sandbox process in `setup` and checks its promises for real. Resolves with null when
 * it works as its mode says, else with the reason it does not.
 */
export async function probeSandboxSetup(setup: SandboxSetup): Promise<string | null> {
  const poolDir = createSandboxPoolDir();
  const sandbox = new SandboxProcess(setup, poolDir);
  try {
    const ready = await sandbox.start();
    const result = await runInSandbox(sandbox, { code: probeProgram(poolDir), timeoutS: 10 });
    if (result.outcome !== "passed") return `probe failed: ${result.error}`;
    if (setup.mode === "plain") return null;
    if (setup.mode !== "darwin" && !ready.namespace_init) return "no pid namespace";
    const report = JSON.parse(result.stdout) as { net: number | null; write: number | null };
    if (report.net === null || ECONNREFUSED.includes(report.net)) return "network reachable";
    if (report.write === null || fs.existsSync(path.join(poolDir, "escape"))) return "host writable";
    return null;
  } catch (error) {
    return errorMessage(error);
  } finally {
    sandbox.close();
    destroySandboxPoolDir(poolDir);
  }
}
