import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger, logFileProblem, logToFile } from "../../../src-main/base/createLogger.js";
import { createStores } from "../../../src-main/core/createStores.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-logfile-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// /dev/full answers every write with ENOSPC: a real full disk, without filling one.
describe.runIf(fs.existsSync("/dev/full"))("the log file on a full disk", () => {
  it("drops lines, says so in the health warnings, and the process keeps running", async () => {
    const logs = path.join(dir, "logs");
    fs.mkdirSync(logs);
    fs.symlinkSync("/dev/full", path.join(logs, "perch.1.log"));
    await logToFile(logs, { retryAfterMs: 20 });
    const log = createLogger("probe");
    for (let round = 0; round < 10; round += 1) {
      for (let line = 0; line < 3; line += 1) log.error({ round, line }, "a line for a full disk");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Without an 'error' listener the first failed write was an uncaught exception here.
    await expect.poll(() => logFileProblem()?.error).toMatch(/ENOSPC/);
    expect(logFileProblem()?.dropped).toBeGreaterThan(0);
    const { health } = createStores({ basePath: path.join(dir, "base") });
    const warnings = await health.list();
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: "storage_error",
        path: logs,
        message: expect.stringMatching(/ENOSPC/),
      }),
    );
  });
});
