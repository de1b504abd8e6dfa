import { boundedText, lastLine } from "./boundedText.js";
import { wallClockSeconds } from "./sandboxLimits.js";
import type { SandboxOutcome } from "./SandboxRun.js";
import type { ZygoteResponse } from "./zygoteProtocol.js";

const SIGKILL = 9;
const SIGXCPU = 24;
const syntaxErrors = new Set(["SyntaxError", "IndentationError", "TabError"]);
const memoryText = /MemoryError|Cannot allocate memory|out of memory/i;

/** Turns how a check ended into a typed outcome and a bounded reason. */
export function classifySandboxRun(
  response: ZygoteResponse,
  options: { exitIsSuccess: boolean; timeoutS: number; outputLimitBytes: number; scratchBytes: number },
): { outcome: SandboxOutcome; error: string | null } {
  const stderr = response.stderr ?? "";
  const status = response.status ?? null;
  const fail = (outcome: SandboxOutcome, error: string) => ({ outcome, error: boundedText(error) });
  // The sandbox's own failures come first: whatever else the check did, it was not judged fairly.
  if (response.sandbox_error) return fail("scoring_error", `sandbox: ${response.sandbox_error}`);
  if (status?.kind === "sandbox_error")
    return fail("scoring_error", `sandbox: ${status.message ?? "setup failed"}`);
  // A check that ignores SIGXCPU is SIGKILLed by the kernel at the hard CPU limit.
  const cpuKilled = response.signal === SIGKILL && response.cpu_exceeded && !response.output_exceeded;
  if (response.signal === SIGXCPU || (cpuKilled && !response.timed_out))
    return fail("timeout", `used over ${options.timeoutS} s of CPU time`);
  if (response.timed_out)
    return fail("timeout", `timed out after ${wallClockSeconds(options.timeoutS)} s (wall clock)`);
  if (response.output_exceeded) {
    return fail("runtime_error", `output limit exceeded (over ${options.outputLimitBytes} bytes)`);
  }
  const passed = status?.kind === "completed" || (options.exitIsSuccess && exitedCleanly(response));
  if (response.scratch_exceeded && !passed) {
    return fail("disk_quota", `wrote over ${options.scratchBytes} bytes in its dir (the scratch quota)`);
  }
  const reason = lastLine(stderr);
  if (status) {
    switch (status.kind) {
      case "completed":
        return { outcome: "passed", error: null };
      case "syntax_error":
        return fail("syntax_error", reason || `${status.type}: ${status.message}`);
      case "exception": {
        const described = reason || `${status.type}${status.message ? `: ${status.message}` : ""}`;
        if (status.type === "MemoryError") return fail("memory", described);
        if (status.type === "AssertionError") return fail("wrong_answer", described);
        // Raised by a harness that compiles the candidate itself (LiveCodeBench functional).
        if (syntaxErrors.has(status.type ?? "")) return fail("syntax_error", described);
        return fail("runtime_error", described);
      }
      case "exit":
        if ((status.code ?? 0) === 0) {
          return options.exitIsSuccess
            ? { outcome: "passed", error: null }
            : fail("runtime_error", "the program exited before its tests finished");
        }
        return fail("runtime_error", withOutput(`exited with code ${status.code}`, reason));
      default:
        return status.kind satisfies never;
    }
  }
  // No status: the process died, or left through os._exit without reporting.
  if (response.signal != null) {
    if (memoryText.test(stderr)) return fail("memory", reason);
    return fail("runtime_error", reason || `killed by signal ${response.signal}`);
  }
  if (response.exit_code === 0 && options.exitIsSuccess) return { outcome: "passed", error: null };
  if (memoryText.test(stderr)) return fail("memory", reason);
  // The exit is the verdict; what the program last wrote is only context (it may say "passed").
  return fail(
    "runtime_error",
    withOutput(`exited with code ${response.exit_code} before its tests finished`, reason),
  );
}

function withOutput(verdict: string, lastError: string): string {
  return lastError ? `${verdict} (its last error output: ${lastError})` : verdict;
}

function exitedCleanly(response: ZygoteResponse): boolean {
  if (response.status) return response.status.kind === "exit" && (response.status.code ?? 0) === 0;
  return response.exit_code === 0;
}
