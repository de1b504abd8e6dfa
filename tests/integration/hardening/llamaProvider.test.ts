import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Llama } from "node-llama-cpp";
import { afterAll, describe, expect, it } from "vitest";
import { createLlamaProvider } from "../../../src-main/engine/createLlamaProvider.js";
import { repositoryRoot } from "../../helpers/runPerch.js";

const exec = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-llama-provider-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("createLlamaProvider", () => {
  it("does not keep a failed start: the next call tries again", async () => {
    let calls = 0;
    const llama = {} as Llama;
    const provide = createLlamaProvider({
      gpu: false,
      // The boundary: getLlama rejecting as it did with no descriptors left (NoBinaryFoundError).
      start: async () => {
        calls += 1;
        if (calls === 1) throw new Error("NoBinaryFoundError: Could not find a binary");
        return llama;
      },
    });
    const failed = await provide().catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: "model_load_failed", status: 503 });
    expect((failed as Error).message).toMatch(/engine could not start.*NoBinaryFoundError.*not the model's/);
    await expect(provide()).resolves.toBe(llama);
    await expect(provide()).resolves.toBe(llama);
    expect(calls).toBe(2);
  });

  it("with no file descriptors left refuses to start (no crash), and starts once they are free", async () => {
    // A real EMFILE, in a child process: it opens /dev/null until the limit, asks for the engine,
    // frees them and asks again.
    const script = path.join(dir, "emfile.mts");
    fs.writeFileSync(
      script,
      [
        `import fs from "node:fs";`,
        `import { createLlamaProvider } from ${JSON.stringify(path.join(repositoryRoot, "src-main/engine/createLlamaProvider.ts"))};`,
        `const provide = createLlamaProvider({ gpu: false });`,
        `const fds: number[] = [];`,
        `try { for (;;) fds.push(fs.openSync("/dev/null", "r")); } catch {}`,
        `for (let i = 0; i < 2; i += 1) fs.closeSync(fds.pop()!);`,
        `const first = await provide().then(() => "ok", (e) => e.code + " " + e.status + " " + e.message);`,
        `for (const fd of fds) fs.closeSync(fd);`,
        `const second = await provide().then(() => "ok", (e) => e.code + " " + e.message);`,
        `console.log(JSON.stringify({ first, second }));`,
        `process.exit(0);`,
      ].join("\n"),
    );
    const tsx = path.join(repositoryRoot, "node_modules/.bin/tsx");
    const { stdout } = await exec("bash", ["-c", `ulimit -n 256 && exec ${tsx} ${script}`], {
      env: { ...process.env, PERCH_LOG_LEVEL: "silent" },
    });
    const outcome = JSON.parse(stdout.trim().split("\n").at(-1)!) as { first: string; second: string };
    expect(outcome.first).toMatch(/^model_load_failed 503 The llama.cpp engine could not start \(EMFILE/);
    expect(outcome.second).toBe("ok");
  });
});
