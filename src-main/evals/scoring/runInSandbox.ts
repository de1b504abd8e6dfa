import { classifySandboxRun } from "./classifySandboxRun.js";
import { sandboxDefaults, wallClockSeconds } from "./sandboxLimits.js";
import type { SandboxRunRequest, SandboxRunResult } from "./SandboxRun.js";
import type { SandboxProcess } from "./SandboxProcess.js";

/** What a check sees as its environment; HOME and TMPDIR are its own working dir (the zygote sets them). */
const checkEnvironment = {
  PATH: "/usr/bin:/bin:/usr/local/bin",
  LANG: "C.UTF-8",
  PYTHONIOENCODING: "utf-8",
  PYTHONDONTWRITEBYTECODE: "1",
  PYTHONHASHSEED: "0",
};

/** Runs one check on a sandbox process and types the outcome. */
export async function runInSandbox(
  process: SandboxProcess,
  request: SandboxRunRequest,
): Promise<SandboxRunResult> {
  const timeoutS = request.timeoutS ?? sandboxDefaults.timeoutS;
  const outputLimitBytes = request.outputLimitBytes ?? sandboxDefaults.outputLimitBytes;
  const response = await process.run({
    code: request.code,
    stdin: request.stdin ?? null,
    timeout_s: wallClockSeconds(timeoutS),
    cpu_s: timeoutS,
    memory_bytes: request.memoryBytes === undefined ? sandboxDefaults.memoryBytes : request.memoryBytes,
    output_limit_bytes: outputLimitBytes,
    file_size_bytes: sandboxDefaults.fileSizeBytes,
    processes: sandboxDefaults.processes,
    env: checkEnvironment,
  });
  const { outcome, error } = classifySandboxRun(response, {
    exitIsSuccess: request.exitIsSuccess ?? false,
    timeoutS,
    outputLimitBytes,
  });
  return {
    outcome,
    error,
    stdout: response.stdout ?? "",
    stderr: response.stderr ?? "",
    durationS: response.duration_s ?? 0,
    cpuS: response.cpu_s ?? null,
  };
}
