import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { performanceResultSchema } from "../../../src-shared/contracts/performance.js";
import { ensureTestModels } from "../../helpers/testModels.js";

const run = promisify(execFile);
let basePath: string;
let modelId: string;

beforeAll(async () => {
  const { main } = await ensureTestModels();
  basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-bench-cli-"));
  fs.mkdirSync(path.join(basePath, "models"));
  fs.symlinkSync(main, path.join(basePath, "models", path.basename(main)));
  modelId = path.basename(main).replace(/\.gguf$/, "");
});

afterAll(() => fs.rmSync(basePath, { recursive: true, force: true }));

describe("perch bench run", () => {
  it("runs in-process, prints the results table and stores the result", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "bin/perch.js",
        "bench",
        "run",
        "--base-path",
        basePath,
        "--model",
        modelId,
        "--prompt-lengths",
        "128",
        "--batch-sizes",
        "2",
        "--batch-prompt-length",
        "128",
      ],
      // A closed port: no running server is found, so the run happens in this process.
      { env: { ...process.env, PERCH_LOG_LEVEL: "warn", PERCH_HOST: "127.0.0.1:9" }, timeout: 120_000 },
    );
    expect(stdout).toContain("Single request");
    expect(stdout).toContain("Concurrent requests");
    expect(stdout).toMatch(/upload not requested/);
    const dir = path.join(basePath, "benchmarks", "performance", "results");
    const files = fs.readdirSync(dir).filter((name) => name.endsWith(".json"));
    expect(files).toHaveLength(1);
    const result = performanceResultSchema.parse(
      JSON.parse(fs.readFileSync(path.join(dir, files[0]), "utf8")),
    );
    expect(result.single.map((test) => test.prompt_tokens)).toEqual([128]);
    expect(result.batch.map((test) => test.batch_size)).toEqual([2]);
    expect(result.upload_requested).toBe(false);
    expect(result.plan.batch_prompt_tokens).toBe(128);
  });

  it("fails when nothing was measured (every prompt over the context), and exits 78 on a broken settings.json", async () => {
    const small = fs.mkdtempSync(path.join(os.tmpdir(), "perch-bench-cli-small-"));
    try {
      fs.mkdirSync(path.join(small, "models"));
      fs.symlinkSync(
        fs.realpathSync(path.join(basePath, "models", `${modelId}.gguf`)),
        path.join(small, "models", `${modelId}.gguf`),
      );
      fs.writeFileSync(
        path.join(small, "model_settings.json"),
        JSON.stringify({ version: 1, models: { [modelId]: { context_size: 512 } } }),
      );
      const env = { ...process.env, PERCH_LOG_LEVEL: "warn", PERCH_HOST: "127.0.0.1:9" };
      const args = ["bin/perch.js", "bench", "run", "--base-path", small, "--model", modelId];
      // Exited 0 with an empty result ("Single request (none)").
      const empty = await run(process.execPath, [...args, "--prompt-lengths", "1024", "--batch-sizes", "0"], {
        env,
        timeout: 120_000,
      }).catch((error: { code: number; stderr: string }) => error);
      expect(empty).toMatchObject({ code: 1 });
      expect((empty as { stderr: string }).stderr).toContain("nothing was measured");
      // Exited 1 where every other command exits 78 (the configuration exit code).
      fs.writeFileSync(path.join(small, "settings.json"), '{"port": 12, bad');
      const broken = await run(process.execPath, args, { env, timeout: 60_000 }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(broken).toMatchObject({ code: 78 });
    } finally {
      fs.rmSync(small, { recursive: true, force: true });
    }
  });

  it("rejects prompt lengths outside the allowed set in plain words and exit code 1", async () => {
    const failed = await run(
      process.execPath,
      [
        "bin/perch.js",
        "bench",
        "run",
        "--base-path",
        basePath,
        "--model",
        modelId,
        "--prompt-lengths",
        "100",
      ],
      { env: { ...process.env, PERCH_LOG_LEVEL: "warn" }, timeout: 60_000 },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      "prompt lengths must be from 128, 512, 1024, 4096, 8192, 16384, 32768 (got 100)",
    );
    expect((failed as { stderr: string }).stderr).not.toMatch(/Invalid option|prompt_lengths/);
  });

  it("prints what it measured when only saving the result fails, then the storage error, exit 1", async () => {
    const unsaved = fs.mkdtempSync(path.join(os.tmpdir(), "perch-bench-cli-unsaved-"));
    try {
      fs.mkdirSync(path.join(unsaved, "models"));
      fs.symlinkSync(
        fs.realpathSync(path.join(basePath, "models", `${modelId}.gguf`)),
        path.join(unsaved, "models", `${modelId}.gguf`),
      );
      // The results folder cannot be written: a file stands where it belongs (a real write
      // failure, as a full disk is, without filling one).
      fs.mkdirSync(path.join(unsaved, "benchmarks", "performance"), { recursive: true });
      fs.writeFileSync(path.join(unsaved, "benchmarks", "performance", "results"), "");
      const env = { ...process.env, PERCH_LOG_LEVEL: "error", PERCH_HOST: "127.0.0.1:9" };
      const args = ["bin/perch.js", "bench", "run", "--base-path", unsaved, "--model", modelId];
      const plan = ["--prompt-lengths", "128", "--batch-sizes", "0"];
      for (const json of [false, true]) {
        const failed = await run(process.execPath, [...args, ...plan, ...(json ? ["--json"] : [])], {
          env,
          timeout: 120_000,
        }).catch((error: { code: number; stdout: string; stderr: string }) => error);
        expect(failed).toMatchObject({ code: 1 });
        const { stdout, stderr } = failed as { stdout: string; stderr: string };
        if (json) {
          expect(
            JSON.parse(stdout).single.map((test: { prompt_tokens: number }) => test.prompt_tokens),
          ).toEqual([128]);
        } else {
          expect(stdout).toContain("Single request");
        }
        expect(stderr).toMatch(/\(storage_error\)/);
      }
    } finally {
      fs.rmSync(unsaved, { recursive: true, force: true });
    }
  });
});
