import { createLogger } from "../../base/createLogger.js";
import { classifySandboxRun } from "./classifySandboxRun.js";
import { sandboxDefaults, wallClockSeconds } from "./sandboxLimits.js";
import type { SandboxRunRequest, SandboxRunResult } from "./SandboxRun.js";
import type { SandboxProcess } from "./SandboxProcess.js";
import type { ZygoteRequest } from "./zygoteProtocol.js";

/** Looked up when used: the CLI lowers the log level after modules are loaded. */
const log = () => createLogger("evals");

/** What a check sees as its environment; HOME and TMPDIR are its own working dir (the zygote sets them). */
const checkEnvironment = {
  PATH: "/usr/bin:/bin:/usr/local/bin",
  LANG: "C.UTF-8",
  PYTHONIOENCODING: "utf-8",
  PYTHONDONTWRITEBYTECODE: "1",
  PYTHONHASHSEED: "0",
};

/**
 * Runs one check on a sandbox process and types the outcome. When the sandbox itself failed
 * (`scoring_error`), the process is restarted (it self-checks before taking work) and the check
 * runs once more; a second failure comes back as `scoring_error`, never as the model's failure.
 */
export async function runInSandbox(
  process: SandboxProcess,
  request: SandboxRunRequest,
): Promise<SandboxRunResult> {
  const first = await runOnce(process, request);
  if (first.outcome !== "scoring_error") return first;
  log().warn({ error: first.error }, "the scoring sandbox failed; restarting it and retrying the check");
  await process.stop();
  const second = await runOnce(process, request);
  if (second.outcome === "scoring_error") {
    log().error({ error: second.error }, "the scoring sandbox failed again: the check is not scored");
    await process.stop();
  }
  return second;
}

async function runOnce(process: SandboxProcess, request: SandboxRunRequest): Promise<SandboxRunResult> {
  const timeoutS = request.timeoutS ?? sandboxDefaults.timeoutS;
  const outputLimitBytes = request.outputLimitBytes ?? sandboxDefaults.outputLimitBytes;
  const check: Omit<ZygoteRequest, "id"> = {
    code: request.code,
    tests: request.tests ?? null,
    test_names: [...(request.testNames ?? [])],
    stdin: request.stdin ?? null,
    timeout_s: wallClockSeconds(timeoutS),
    cpu_s: timeoutS,
    memory_bytes: request.memoryBytes === undefined ? sandboxDefaults.memoryBytes : request.memoryBytes,
    output_limit_bytes: outputLimitBytes,
    file_size_bytes: sandboxDefaults.fileSizeBytes,
    scratch_bytes: sandboxDefaults.scratchBytes,
    processes: sandboxDefaults.processes,
    env: checkEnvironment,
  };
  const response = await process.run(check);
  const { outcome, error } = classifySandboxRun(response, {
    exitIsSuccess: request.exitIsSuccess ?? false,
    timeoutS,
    outputLimitBytes,
    scratchBytes: sandboxDefaults.scratchBytes,
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
