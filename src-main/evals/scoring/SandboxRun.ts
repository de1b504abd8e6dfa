/**
 * How a sandboxed check ended, typed. `scoring_error`: the sandbox itself failed (not the
 * candidate), even after a restart and one retry on a fresh sandbox; never the model's fault.
 */
export type SandboxOutcome =
  | "passed"
  | "wrong_answer"
  | "runtime_error"
  | "syntax_error"
  | "timeout"
  | "memory"
  | "disk_quota"
  | "scoring_error";

/** One program to run in the sandbox: candidate code, then its tests in the same process. */
export interface SandboxRunRequest {
  code: string;
  /**
   * The benchmark's tests, run after `code` in the same process once it completes: on the builtins
   * and standard modules as they were before `code` ran (what it rebound there, e.g. `abs` or
   * `math.isclose`, is put back), seeing the names `code` defined except ones that hide a builtin.
   * Defaults to none (`code` is the whole program).
   */
  tests?: string;
  /**
   * Names the tests take from `code` even where they hide a builtin (MBPP task 126's function is
   * `sum`). Defaults to none.
   */
  testNames?: readonly string[];
  /** Text on the program's stdin. Defaults to none (stdin reads EOF). */
  stdin?: string;
  /**
   * CPU-time limit in seconds. The wall-clock limit is `3 × timeoutS + 1`: CPU time is what a
   * runaway loop uses up, and it does not grow when the machine is busy, so a correct but slow
   * solution is not failed by load; the wall clock still stops code that sleeps. Defaults to `10`.
   */
  timeoutS?: number;
  /** Address-space limit of each process in bytes; `null` for none. Defaults to 1 GiB. */
  memoryBytes?: number | null;
  /** Output kept per stream; a check that prints more is stopped. Defaults to 1 MiB. */
  outputLimitBytes?: number;
  /**
   * Whether ending through `sys.exit(0)` / `os._exit(0)` passes: right for stdin/stdout programs,
   * wrong for a test harness (the tests did not run). Defaults to `false`.
   */
  exitIsSuccess?: boolean;
}

export interface SandboxRunResult {
  outcome: SandboxOutcome;
  /** Why it did not pass, bounded (the last line of stderr, usually). Null when passed. */
  error: string | null;
  stdout: string;
  stderr: string;
  durationS: number;
  cpuS: number | null;
}

/** Runs sandboxed checks; implemented by the worker pool and by the in-thread sandbox. */
export interface CodeSandbox {
  run(request: SandboxRunRequest, signal?: AbortSignal): Promise<SandboxRunResult>;
  close(): Promise<void>;
}
