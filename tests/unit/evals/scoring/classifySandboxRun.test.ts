import { describe, expect, it } from "vitest";
import { classifySandboxRun } from "../../../../src-main/evals/scoring/classifySandboxRun.js";
import type { ZygoteResponse } from "../../../../src-main/evals/scoring/zygoteProtocol.js";

const options = { exitIsSuccess: false, timeoutS: 2, outputLimitBytes: 100, scratchBytes: 1000 };
const traceback = (last: string) =>
  `Traceback (most recent call last):\n  File "solution.py", line 3, in <module>\n${last}\n`;

describe("classifySandboxRun", () => {
  it.each<[string, ZygoteResponse, string, string | null]>([
    ["a completed program", { status: { kind: "completed" }, exit_code: 0 }, "passed", null],
    [
      "a failed assert",
      {
        status: { kind: "exception", type: "AssertionError", message: "" },
        stderr: traceback("AssertionError"),
      },
      "wrong_answer",
      "AssertionError",
    ],
    [
      "a compile error",
      {
        status: { kind: "syntax_error", type: "SyntaxError", message: "invalid syntax" },
        stderr: "SyntaxError: invalid syntax",
      },
      "syntax_error",
      "SyntaxError: invalid syntax",
    ],
    [
      "a SyntaxError raised by a harness",
      {
        status: { kind: "exception", type: "IndentationError", message: "x" },
        stderr: traceback("IndentationError: x"),
      },
      "syntax_error",
      "IndentationError: x",
    ],
    [
      "MemoryError",
      { status: { kind: "exception", type: "MemoryError", message: "" }, stderr: traceback("MemoryError") },
      "memory",
      "MemoryError",
    ],
    [
      "another exception",
      {
        status: { kind: "exception", type: "NameError", message: "name 'x' is not defined" },
        stderr: traceback("NameError: name 'x' is not defined"),
      },
      "runtime_error",
      "NameError: name 'x' is not defined",
    ],
    ["the wall clock", { timed_out: true, signal: 9 }, "timeout", "timed out after 7 s (wall clock)"],
    ["the CPU limit (SIGXCPU)", { signal: 24 }, "timeout", "used over 2 s of CPU time"],
    [
      "an output flood",
      { output_exceeded: true, signal: 9 },
      "runtime_error",
      "output limit exceeded (over 100 bytes)",
    ],
    [
      "sys.exit(0) before the tests",
      { status: { kind: "exit", code: 0 } },
      "runtime_error",
      "the program exited before its tests finished",
    ],
    ["sys.exit(3)", { status: { kind: "exit", code: 3 } }, "runtime_error", "exited with code 3"],
    [
      "os._exit(0)",
      { status: null, exit_code: 0 },
      "runtime_error",
      "exited with code 0 before its tests finished",
    ],
    [
      "os._exit(0) after writing that the tests passed: the exit is the verdict",
      { status: null, exit_code: 0, stderr: "All 7 tests passed\n" },
      "runtime_error",
      "exited with code 0 before its tests finished (its last error output: All 7 tests passed)",
    ],
    [
      "sys.exit(1) after an error message of its own",
      { status: { kind: "exit", code: 1 }, stderr: "bad input\n" },
      "runtime_error",
      "exited with code 1 (its last error output: bad input)",
    ],
    ["a segfault", { status: null, signal: 11 }, "runtime_error", "killed by signal 11"],
    [
      "a zygote failure is the sandbox's, not the model's",
      { sandbox_error: "sandbox process exited (SIGKILL)" },
      "scoring_error",
      "sandbox: sandbox process exited (SIGKILL)",
    ],
    [
      "a check whose setup failed (its dir unwritable) is the sandbox's failure",
      {
        status: { kind: "sandbox_error", message: "PermissionError(13, 'Permission denied')" },
        exit_code: 70,
      },
      "scoring_error",
      "sandbox: PermissionError(13, 'Permission denied')",
    ],
    [
      "SIGKILL at the hard CPU limit (SIGXCPU ignored) is a timeout",
      { status: null, signal: 9, cpu_exceeded: true },
      "timeout",
      "used over 2 s of CPU time",
    ],
    [
      "SIGKILL below the CPU limit stays a runtime error",
      { status: null, signal: 9, cpu_exceeded: false },
      "runtime_error",
      "killed by signal 9",
    ],
    [
      "a full scratch dir",
      {
        status: { kind: "exception", type: "OSError", message: "[Errno 28] No space left on device" },
        stderr: traceback("OSError: [Errno 28] No space left on device"),
        scratch_exceeded: true,
      },
      "disk_quota",
      "wrote over 1000 bytes in its dir (the scratch quota)",
    ],
    [
      "a full scratch dir does not fail a check that passed",
      { status: { kind: "completed" }, scratch_exceeded: true },
      "passed",
      null,
    ],
  ])("%s", (_name, response, outcome, error) => {
    expect(classifySandboxRun(response, options)).toEqual({ outcome, error });
  });

  it("lets stdin/stdout programs end through sys.exit(0) or os._exit(0)", () => {
    const stdio = { ...options, exitIsSuccess: true };
    expect(classifySandboxRun({ status: { kind: "exit", code: 0 } }, stdio).outcome).toBe("passed");
    expect(classifySandboxRun({ status: null, exit_code: 0 }, stdio).outcome).toBe("passed");
  });

  it("bounds the error to 500 characters", () => {
    const long = {
      status: { kind: "exception" as const, type: "ValueError" },
      stderr: `ValueError: ${"x".repeat(2000)}`,
    };
    expect(classifySandboxRun(long, options).error!.length).toBe(500);
  });
});
