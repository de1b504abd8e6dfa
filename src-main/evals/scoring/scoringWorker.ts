import { workerData } from "node:worker_threads";
import { runInSandbox } from "./runInSandbox.js";
import type { SandboxSetup } from "./SandboxMode.js";
import { SandboxProcess } from "./SandboxProcess.js";
import type { SandboxRunRequest, SandboxRunResult } from "./SandboxRun.js";

export interface ScoringWorkerData {
  setup: SandboxSetup;
  poolDir: string;
}

let sandbox: SandboxProcess | undefined;

/** The piscina task: each worker thread owns one sandbox process and runs one check at a time. */
export default function runScoringCheck(request: SandboxRunRequest): Promise<SandboxRunResult> {
  const data = workerData as ScoringWorkerData;
  sandbox ??= new SandboxProcess(data.setup, data.poolDir);
  return runInSandbox(sandbox, request);
}

/**
 * Piscina cannot run code in a worker as it is terminated, and a terminated thread can no longer
 * reap its child: so before the pool is destroyed, each worker takes one of these tasks (all of
 * them wait at the barrier until every worker holds one) and stops its own zygote.
 */
export async function stopScoringWorker(barrier: { arrived: Int32Array; workers: number }): Promise<void> {
  Atomics.add(barrier.arrived, 0, 1);
  const deadline = Date.now() + 5_000;
  while (Atomics.load(barrier.arrived, 0) < barrier.workers && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await sandbox?.stop();
  sandbox = undefined;
}
