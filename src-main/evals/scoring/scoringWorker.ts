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
