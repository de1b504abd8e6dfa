import { PerchError } from "../../base/PerchError.js";
import { darwinSandboxProfile } from "./darwinSandboxProfile.js";
import type { SandboxSetup } from "./SandboxMode.js";

/** The OS wrapper that puts the zygote in its isolation; the python arguments follow it. */
export function sandboxLaunchCommand(setup: SandboxSetup, scratch: string): string[] {
  const mode = setup.mode;
  switch (mode) {
    case "linux-root":
    case "linux-user": {
      if (!setup.unshare) throw new PerchError("internal_error", `sandbox mode ${mode} needs unshare`);
      const user = mode === "linux-user" ? ["--map-root-user"] : [];
      // --kill-child: when unshare dies the zygote (pid 1) dies, and with it the whole namespace.
      // IPC and UTS namespaces of its own; each check also gets an IPC namespace of its own.
      const namespaces = [
        "--net",
        "--pid",
        "--fork",
        "--mount",
        "--mount-proc",
        "--ipc",
        "--uts",
        "--kill-child",
      ];
      return [setup.unshare, ...user, ...namespaces, "--", setup.python];
    }
    case "darwin":
      return ["/usr/bin/sandbox-exec", "-p", darwinSandboxProfile(scratch), setup.python];
    case "plain":
      return [setup.python];
    default:
      return mode satisfies never;
  }
}
