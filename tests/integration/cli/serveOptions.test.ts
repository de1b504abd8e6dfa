import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPerch } from "../../helpers/runPerch.js";

/*
 * `perch serve`'s own flags are checked before anything starts: a bad value is a one-line refusal
 * (commander's), never a stack nor a silent default. A value wrongly let through would start a
 * server, so each run has a short timeout and a base folder of its own.
 */
let base: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-cli-serve-options-"));
  env = { PERCH_HOME: base, PERCH_LOG_LEVEL: "warn" };
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe("perch serve's options", () => {
  it("--log-level takes pino's levels only", async () => {
    const refused = await runPerch(["serve", "--port", "0", "--log-level", "verbose"], env, 30_000);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "argument 'verbose' is invalid. Allowed choices are fatal, error, warn, info",
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });

  it.each(["0", "-2", "abc", "1.5", "600"])(
    "--threads %s is refused (a whole number from 1 to 256)",
    async (value) => {
      const refused = await runPerch(["serve", "--port", "0", `--threads=${value}`], env, 30_000);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `argument '${value}' is invalid. must be a whole number from 1 to 256`,
      );
    },
  );

  it("a PERCH_LOG_LEVEL pino does not know is a warning, not a stack", async () => {
    const version = await runPerch(["--version"], { ...env, PERCH_LOG_LEVEL: "verbose" }, 30_000);
    expect(version.code).toBe(0);
    expect(version.stderr).toContain("PERCH_LOG_LEVEL=verbose is not a level");
    expect(version.stderr).not.toMatch(/\n\s+at /);
  });

  it("--host that is no address of this machine says so (invalid_request), not getaddrinfo's internal_error", async () => {
    const refused = await runPerch(
      ["serve", "--host", "999.1.1.1", "--port", "0", "--no-starter-model"],
      env,
      60_000,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "perch serve: Cannot listen on 999.1.1.1: it is no host name or address known here (ENOTFOUND).",
    );
    expect(refused.stderr).toMatch(/127\.0\.0\.1 \(this machine only\), 0\.0\.0\.0 .*\(invalid_request\)\n$/);
  });
});
