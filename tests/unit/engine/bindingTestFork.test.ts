import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * node-llama-cpp tests a binding binary in a forked process before it loads it. A fork that
 * cannot start (no free file descriptors: EMFILE; a missing executable: ENOENT) emits 'error' on
 * the child, and 3.21.1 had no listener: the whole server crashed. With the patch
 * (`patches/node-llama-cpp+3.21.1.patch`, testBindingBinary.js) the test fails instead, so
 * `getLlama` fails and Perch answers `model_load_failed`.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "perch-binding-fork-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("node-llama-cpp's binding test fork", () => {
  it("rejects when the fork cannot start, instead of crashing the process", async () => {
    const library = pathToFileURL(
      path.join(repoRoot, "node_modules/node-llama-cpp/dist/bindings/utils/testBindingBinary.js"),
    ).href;
    const script = path.join(work, "fork.mjs");
    fs.writeFileSync(
      script,
      [
        `import { testBindingBinary } from ${JSON.stringify(library)};`,
        // fork() starts process.execPath: a path that does not exist fails the spawn (ENOENT).
        `process.execPath = ${JSON.stringify(path.join(work, "no-such-node"))};`,
        `try {`,
        `  await testBindingBinary("/no/such/binding.node", undefined, false, 10_000);`,
        `  console.log("resolved");`,
        `} catch (error) {`,
        `  console.log("rejected: " + error.message);`,
        `}`,
      ].join("\n"),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 30_000 });
    expect(stdout).toContain("rejected: Binding binary test failed to run a test process");
  });
});
