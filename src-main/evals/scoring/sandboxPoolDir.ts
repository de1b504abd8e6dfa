import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { killProcessGroup } from "./killProcessGroup.js";
import { isProcessAlive } from "../../base/isProcessAlive.js";

const prefix = "perch-sandbox-";

/** A fresh folder for one pool's scratch dirs, named after this process so stale ones can be told apart. */
export function createSandboxPoolDir(): string {
  removeStalePoolDirs();
  const poolDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}${process.pid}-`));
  // Traversable: checks that run as an unprivileged uid must reach their dirs inside.
  fs.chmodSync(poolDir, 0o711);
  return poolDir;
}

/** Kills every zygote whose pid file is in `poolDir`, then removes the folder. Synchronous. */
export function destroySandboxPoolDir(poolDir: string): void {
  for (const name of listQuietly(poolDir).filter((entry) => entry.endsWith(".pid"))) {
    const pid = Number(fs.readFileSync(path.join(poolDir, name), "utf8"));
    if (Number.isInteger(pid) && pid > 1) killProcessGroup(pid);
  }
  fs.rmSync(poolDir, { recursive: true, force: true, maxRetries: 3 });
}

function listQuietly(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Folders left by a Perch process that died without cleaning up. Their zygotes exit on their
 * own (their stdin closed with that process), so only the folders are removed: killing by an
 * old pid could hit an unrelated process that reused it.
 */
function removeStalePoolDirs(): void {
  for (const name of listQuietly(os.tmpdir())) {
    const match = /^perch-sandbox-(\d+)-/.exec(name);
    if (!match || isProcessAlive(Number(match[1]))) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}
