export const sandboxDefaults = {
  timeoutS: 10,
  memoryBytes: 1024 ** 3,
  outputLimitBytes: 1024 ** 2,
  /** Candidate files stay small; the limit stops a disk-filling loop early. */
  fileSizeBytes: 16 * 1024 ** 2,
  /** Everything a check may write in its dir, all files together (SANDBOX.md). */
  scratchBytes: 64 * 1024 ** 2,
  /** Processes and threads per check where the OS can count them per check (SANDBOX.md). */
  processes: 32,
} as const;

/** The wall-clock backstop of a CPU-time limit (see `SandboxRunRequest.timeoutS`). */
export function wallClockSeconds(cpuSeconds: number): number {
  return 3 * cpuSeconds + 1;
}
