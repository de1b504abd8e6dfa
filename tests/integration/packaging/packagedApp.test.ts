// The packaged app's file set, proven without Electron's binary (it cannot run here): electron-builder
// packs the app with electron.config.ts and a stand-in Electron, and plain Node then runs Perch from
// the extracted archive alone — node-llama-cpp, the test model, the core answering HTTP, and code
// scoring through the worker pool. Linux only: the test packs a linux `dir` target, with the
// electron.config.ts file rules unchanged except that this machine's node-llama-cpp prebuilt is let
// back in (the mac app ships only the macOS one).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { listPackage } from "@electron/asar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageWithStandInElectron, type PackagedApp } from "./packageWithStandInElectron.js";

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixture = path.join(repoRoot, "tests/integration/packaging/fixtures/humaneval-2.jsonl");
const scoringWorker = "dist/main/src-main/evals/scoring/scoringWorker.js";
/** Files read at run time beside the compiled code (readAssetText): python and the test model need real files. */
const assets = [
  "dist/main/src-main/evals/scoring/sandboxZygote.py",
  "dist/main/src-main/evals/benchmarks/code/codeAnalyzer.py",
  "dist/main/src-main/testModel/trainingCorpus.txt",
];

describe.skipIf(process.platform !== "linux")(
  "the packaged app (electron-builder, stand-in Electron)",
  () => {
    // Outside the checkout: nothing may resolve from the repository's node_modules.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "perch-packaging-"));
    const home = path.join(work, "home");
    let app: PackagedApp;
    let server: ChildProcess | undefined;

    /** Plain Node on the packaged files only: no tsx, no NODE_OPTIONS or NODE_PATH from the test runner. */
    const env = () => {
      const clean: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, PERCH_HOME: home };
      return { ...clean, PERCH_LOG_LEVEL: "warn" };
    };
    const cli = (...args: string[]) =>
      run(process.execPath, [path.join(app.extracted, "dist/main/src-main/cli/main.js"), ...args], {
        cwd: app.extracted,
        env: env(),
      });

    beforeAll(async () => {
      if (fs.lstatSync(path.join(repoRoot, "node_modules")).isSymbolicLink()) {
        // electron-builder's dependency collector (npm ls) then finds no transitive dependency.
        throw new Error("node_modules is a symlink: the packaging test needs a real node_modules folder");
      }
      await run(process.execPath, [path.join(repoRoot, "scripts/buildMain.js"), "--if-stale"], {
        cwd: repoRoot,
      });
      app = await packageWithStandInElectron(repoRoot, work);
      fs.mkdirSync(home, { recursive: true });
    }, 600_000);

    afterAll(() => {
      server?.kill("SIGKILL");
      fs.rmSync(work, { recursive: true, force: true });
    });

    it("ships what node-llama-cpp reads at run time, and no build tooling", () => {
      const files = new Set(listPackage(path.join(app.resources, "app.asar"), { isPack: false }));
      expect(files).toContain("/node_modules/node-llama-cpp/llama/binariesGithubRelease.json");
      expect(files).toContain("/node_modules/node-llama-cpp/llama/grammars/json.gbnf");
      expect(files).not.toContain("/node_modules/node-llama-cpp/llama/gitRelease.bundle");
      expect(files).toContain(`/${scoringWorker}`);
      expect(fs.existsSync(path.join(app.resources, "app.asar.unpacked", scoringWorker))).toBe(true);
      for (const asset of assets) {
        expect(files).toContain(`/${asset}`);
        expect(fs.existsSync(path.join(app.resources, "app.asar.unpacked", asset)), asset).toBe(true);
      }
      // TypeScript is compiled before packaging: no tsx (nor patch-package, an install-time tool).
      const tools = [...files].filter((file) =>
        /^\/node_modules\/(tsx|patch-package|typescript)\//.test(file),
      );
      expect(tools).toEqual([]);
      const compiled = [...files].filter((file) => file.startsWith("/dist/main/") && file.endsWith(".js"));
      expect(compiled.length).toBeGreaterThan(50);
      for (const file of compiled) {
        const source = fs.readFileSync(path.join(app.extracted, file), "utf8");
        expect(source, file).not.toMatch(/["']tsx(\/[^"']*)?["']/);
      }
    });

    it("imports node-llama-cpp and generates the test model with plain Node", async () => {
      // The corpus is read from app.asar.unpacked, as in Electron: the archive's own copy is not needed.
      fs.rmSync(path.join(app.extracted, "dist/main/src-main/testModel/trainingCorpus.txt"));
      await run(process.execPath, ["--input-type=module", "-e", 'await import("node-llama-cpp")'], {
        cwd: app.extracted,
        env: env(),
      });
      const { stdout } = await cli("models", "make-test-model", "--no-draft");
      expect(stdout).toContain(".gguf");
    });

    it("starts the core and answers a chat completion over HTTP", async () => {
      const child = spawn(
        process.execPath,
        [
          path.join(app.extracted, "dist/main/src-main/cli/main.js"),
          "serve",
          "--port",
          "0",
          "--no-starter-model",
        ],
        { cwd: app.extracted, env: env(), stdio: ["ignore", "pipe", "pipe"] },
      );
      server = child;
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /serving at (http:\/\/\S+)/.exec(stdout);
          if (match) resolve(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: { id: string }[] };
      expect(models.data.length).toBeGreaterThan(0);
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: models.data[0].id,
          messages: [{ role: "user", content: "Hello" }],
          max_tokens: 4,
          temperature: 0,
        }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        choices: { message: { content: string } }[];
        usage: { completion_tokens: number };
      };
      expect(typeof body.choices[0].message.content).toBe("string");
      expect(body.usage.completion_tokens).toBeGreaterThan(0);
      child.kill("SIGTERM");
    });

    it("scores a HumanEval item through the worker pool, the worker loaded from app.asar.unpacked alone", async () => {
      // In Electron the worker path is rewritten from app.asar to app.asar.unpacked. Taking the worker
      // out of the extracted archive proves it is that copy that runs, with only its unpacked neighbours.
      fs.rmSync(path.join(app.extracted, scoringWorker));
      const responses = path.join(work, "responses.jsonl");
      fs.writeFileSync(
        responses,
        [
          {
            id: "HumanEval/2",
            response: "```python\ndef truncate_number(number: float) -> float:\n    return number % 1.0\n```",
          },
          { id: "HumanEval/2", response: "    return number // 1.0\n" },
        ]
          .map((line) => JSON.stringify(line))
          .join("\n"),
      );
      const { stdout, stderr } = await cli(
        "eval",
        "score",
        "--benchmark",
        "humaneval",
        "--responses",
        responses,
        "--dataset",
        fixture,
        "--json",
      );
      const results = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { correct: boolean; failure_type: string | null });
      expect(results.map((result) => [result.correct, result.failure_type])).toEqual([
        [true, null],
        [false, "wrong_answer"],
      ]);
      expect(stderr).toContain("1 passed, 1 failed");
    });
  },
);
