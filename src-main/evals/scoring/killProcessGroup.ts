/** SIGKILLs a whole process group (a detached child is its group's leader); quiet when it is gone. */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
