import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runInSandbox } from "../../../../src-main/evals/scoring/runInSandbox.js";
import { SandboxProcess } from "../../../../src-main/evals/scoring/SandboxProcess.js";

/*
 * A stand-in for python3 that speaks the zygote's protocol (hello line, one JSON answer per
 * request) and logs every start and request: the Node side's restart, self-check and retry are
 * checked against it without a real sandbox. `mode` picks its answers.
 */
function fakeZygote(dir: string, mode: "scratch-broken" | "healthy"): string {
  const script = path.join(dir, "fake-python");
  const log = path.join(dir, "log");
  fs.writeFileSync(
    script,
    [
      "#!/usr/bin/env python3",
      "import json, os, sys",
      `log = open(${JSON.stringify(log)}, 'a')`,
      "log.write('start\\n'); log.flush()",
      "print(json.dumps({'ready': True, 'mode': 'plain', 'namespace_init': False, 'python': '3'}), flush=True)",
      "for line in sys.stdin:",
      "    request = json.loads(line)",
      "    log.write(('self-check' if 'self-check' in request['code'] else 'check') + '\\n'); log.flush()",
      `    if ${JSON.stringify(mode)} == 'scratch-broken':`,
      "        status = {'kind': 'exception', 'type': 'PermissionError', 'message': 'denied'}",
      "    else:",
      "        status = {'kind': 'completed'}",
      "    print(json.dumps({'id': request['id'], 'status': status, 'exit_code': 0, 'stdout': '', 'stderr': ''}), flush=True)",
    ].join("\n"),
    { mode: 0o755 },
  );
  return script;
}

let dir = "";
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-self-check-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const log = () => fs.readFileSync(path.join(dir, "log"), "utf8").trim().split("\n");

describe("the sandbox process self-check", () => {
  it("a sandbox that cannot write its scratch takes no check: it is restarted once, then the check is a scoring_error", async () => {
    const sandbox = new SandboxProcess({ mode: "plain", python: fakeZygote(dir, "scratch-broken") }, dir);
    try {
      const result = await runInSandbox(sandbox, { code: "assert True" });
      expect(result.outcome).toBe("scoring_error");
      expect(result.error).toMatch(/self-check failed/);
      // Two starts (the first and the restart), each refused at its self-check; the check never ran.
      expect(log()).toEqual(["start", "self-check", "start", "self-check"]);
    } finally {
      await sandbox.stop();
    }
  });

  it("a healthy sandbox self-checks once at start, then takes checks", async () => {
    const sandbox = new SandboxProcess({ mode: "plain", python: fakeZygote(dir, "healthy") }, dir);
    try {
      expect((await runInSandbox(sandbox, { code: "assert True" })).outcome).toBe("passed");
      expect((await runInSandbox(sandbox, { code: "assert True" })).outcome).toBe("passed");
      expect(log()).toEqual(["start", "self-check", "check", "check"]);
    } finally {
      await sandbox.stop();
    }
  });
});
