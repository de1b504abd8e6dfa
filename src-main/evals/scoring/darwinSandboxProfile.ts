/**
 * A `sandbox-exec` profile for macOS: no network at all, no writes outside the scratch dir.
 * Reads stay allowed (python needs its stdlib); see SANDBOX.md for what that leaves open.
 * `scratch` must be a real path (macOS `/tmp` and `/var` are symlinks into `/private`).
 */
export function darwinSandboxProfile(scratch: string): string {
  const quoted = JSON.stringify(scratch);
  return [
    "(version 1)",
    "(allow default)",
    "(deny network*)",
    "(deny file-write*)",
    `(allow file-write* (subpath ${quoted}) (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/fd/"))`,
  ].join("\n");
}
