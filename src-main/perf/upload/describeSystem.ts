import { execFile } from "node:child_process";
import os from "node:os";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface SystemFacts {
  platform: string;
  /** macOS product version (e.g. `14.5`) on a Mac, the kernel release elsewhere. */
  osVersion: string;
  arch: string;
  /** CPU brand string, e.g. `Apple M2 Pro`. */
  chip: string;
  memoryBytes: number;
  /** GPU cores as macOS reports them; null elsewhere or when unknown. */
  gpuCores: number | null;
}

let cached: Promise<SystemFacts> | undefined;

/** Hardware and OS facts, read once per process (`system_profiler` takes a second). */
export function describeSystem(): Promise<SystemFacts> {
  cached ??= readSystem();
  return cached;
}

async function readSystem(): Promise<SystemFacts> {
  const darwin = process.platform === "darwin";
  const [osVersion, gpuCores] = await Promise.all([
    darwin
      ? command("sw_vers", ["-productVersion"]).then((out) => out?.trim() || os.release())
      : os.release(),
    darwin ? readAppleGpuCores() : null,
  ]);
  return {
    platform: process.platform,
    osVersion,
    arch: process.arch,
    chip: os.cpus()[0]?.model?.trim() || "unknown",
    memoryBytes: os.totalmem(),
    gpuCores,
  };
}

async function readAppleGpuCores(): Promise<number | null> {
  const out = await command("system_profiler", ["SPDisplaysDataType", "-json"]);
  if (!out) return null;
  try {
    const displays = (JSON.parse(out) as { SPDisplaysDataType?: { sppci_cores?: string }[] })
      .SPDisplaysDataType;
    const cores = Number.parseInt(displays?.[0]?.sppci_cores ?? "", 10);
    return Number.isInteger(cores) && cores > 0 ? cores : null;
  } catch {
    return null;
  }
}

async function command(file: string, args: string[]): Promise<string | undefined> {
  try {
    return (await run(file, args, { timeout: 10_000 })).stdout;
  } catch {
    return undefined;
  }
}
