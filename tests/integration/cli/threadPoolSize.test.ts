import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { perchBin, repositoryRoot } from "../../helpers/runPerch.js";

const probe = path.join(repositoryRoot, "tests/fixtures/probes/countThreadsAtExit.cjs");

/** Threads of a `perch --version` process when it exits (libuv's pool has run work by then). */
async function threadsAtExit(threadPoolSize: string | undefined): Promise<number> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "perch-threads-"));
  const countFile = path.join(directory, "count");
  const env: NodeJS.ProcessEnv = { ...process.env, PERCH_TEST_THREAD_COUNT: countFile };
  delete env.UV_THREADPOOL_SIZE;
  if (threadPoolSize !== undefined) env.UV_THREADPOOL_SIZE = threadPoolSize;
  try {
    await promisify(execFile)(process.execPath, ["--require", probe, perchBin, "--version"], {
      cwd: repositoryRoot,
      env,
    });
    return Number.parseInt(fs.readFileSync(countFile, "utf8"), 10);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

// Decodes run on libuv's pool; with its default 4 threads ggml's compute threads run out of step
// (README: "Notes on CPUs"). Node reads the size once, so bin/perch.js must set it before anything
// uses the pool. Linux only: the count comes from /proc.
describe.runIf(process.platform === "linux")("bin/perch.js sizes libuv's thread pool", () => {
  it("runs with 2 pool threads unless UV_THREADPOOL_SIZE is set", async () => {
    const unset = await threadsAtExit(undefined);
    const four = await threadsAtExit("4");
    const two = await threadsAtExit("2");
    expect(four - unset).toBe(2);
    expect(two).toBe(unset);
  });

  it("keeps the size the user set", async () => {
    const six = await threadsAtExit("6");
    const four = await threadsAtExit("4");
    expect(six - four).toBe(2);
  });
});
