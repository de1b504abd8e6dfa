/**
 * How the scoring sandbox isolates checks on this machine, strongest first (SANDBOX.md):
 * - `linux-root`: Perch runs as root; network, pid and mount namespaces, read-only filesystem
 *   except the scratch dir, checks run as an unprivileged uid.
 * - `linux-user`: the same through an unprivileged user namespace (`unshare -r`).
 * - `darwin`: a `sandbox-exec` profile denying network and writes outside the scratch dir.
 * - `plain`: rlimits, a fresh working dir and a minimal environment only.
 */
export type SandboxMode = "linux-root" | "linux-user" | "darwin" | "plain";

/** What a sandbox process needs to start: the mode and the binaries it runs. */
export interface SandboxSetup {
  mode: SandboxMode;
  /** Absolute path of the python3 executable. */
  python: string;
  /** Absolute path of `unshare` (Linux modes). */
  unshare?: string;
  /** The uid checks run as when Perch runs as root. Defaults to `65534` (nobody). */
  runAsUid?: number;
}
