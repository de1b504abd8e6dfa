import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveSandboxSetup } from "../../../src-main/evals/scoring/resolveSandboxSetup.js";
import { findPython } from "../../../src-main/evals/scoring/findPython.js";

// As root, checks run as an unprivileged uid (linux-root, SANDBOX.md). A Python that uid cannot
// reach (a root user's pyenv under /root, say) used to turn the sandbox into the weaker linux-user.
const asRoot = process.platform === "linux" && process.getuid?.() === 0;
const hidden = fs.mkdtempSync(path.join(os.tmpdir(), "perch-hidden-python-"));
afterAll(() => fs.rmSync(hidden, { recursive: true, force: true }));

describe.runIf(asRoot)("the sandbox setup as root", () => {
  it("keeps linux-root with another Python when the given one is out of the check uid's reach", async () => {
    const system = findPython()!.executable;
    fs.chmodSync(hidden, 0o700);
    const python = path.join(hidden, "python3");
    fs.symlinkSync(system, python);
    const setup = await resolveSandboxSetup({ python });
    expect(setup.mode).toBe("linux-root");
    expect(setup.python).not.toBe(python);
    // A Python the uid can reach stays the one given.
    expect(await resolveSandboxSetup({ python: setup.python })).toMatchObject({
      mode: "linux-root",
      python: setup.python,
    });
  });
});
