import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perchBin, repositoryRoot, runPerch } from "../../helpers/runPerch.js";
import { ensureTestModels } from "../../helpers/testModels.js";
import { startFakeHub } from "../../helpers/fakeHub.js";
import { neverEndingFormat } from "../../helpers/inferenceClient.js";

/*
 * The same commands with no server running: they work on the base path's files directly (or say
 * a server is needed). PERCH_HOST points at a closed port so a developer's own server is not found.
 */
let base: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-cli-direct-"));
  env = { PERCH_HOME: base, PERCH_HOST: "127.0.0.1:9", PERCH_LOG_LEVEL: "warn" };
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe("perch without a server", () => {
  it("models ls on an empty folder names the folder and how to add a model", async () => {
    const listed = await runPerch(["models", "ls"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`No models found in ${path.join(base, "models")}.`);
    expect(listed.stdout).toContain("perch pull <owner/repo>[:QUANT]");
    expect(listed.stdout).toContain("perch models make-test-model");
  });

  it("ps says nothing is loaded and load says a server is needed", async () => {
    const ps = await runPerch(["ps"], env);
    expect(ps.stdout).toBe(
      "No server is running at http://127.0.0.1:9, so no model is loaded. Start one: perch serve\n",
    );
    const load = await runPerch(["load", "some-model"], env);
    expect(load.code).toBe(1);
    expect(load.stderr).toContain("No server is running at http://127.0.0.1:9; loading a model needs one.");
  });

  it("models ls and rm work on the files directly", async () => {
    const { main } = await ensureTestModels();
    const copy = path.join(base, "models", "copy-Q8_0.gguf");
    fs.copyFileSync(main, copy);
    const listed = await runPerch(["models", "ls"], env);
    expect(listed.stdout).toMatch(/copy-Q8_0\s+[\d.]+ KB\s+Q8_0/);
    const removed = await runPerch(["rm", "copy-Q8_0"], env);
    expect(removed.code).toBe(0);
    expect(fs.existsSync(copy)).toBe(false);
    const unknown = await runPerch(["rm", "copy-Q8_0"], env);
    expect(unknown.stderr).toMatch(/perch rm: .*\((model_not_found|not_found|conflict)\)/);
  });

  it("models ls --models-dir OTHER lists that folder only and leaves the base's catalog as it was", async () => {
    const { main } = await ensureTestModels();
    const home = path.join(base, "view-home");
    const other = path.join(base, "view-other");
    fs.mkdirSync(path.join(home, "models"), { recursive: true });
    fs.mkdirSync(other, { recursive: true });
    fs.copyFileSync(main, path.join(home, "models", "own-Q8_0.gguf"));
    fs.copyFileSync(main, path.join(other, "elsewhere-Q8_0.gguf"));
    const viewEnv = { ...env, PERCH_HOME: home };
    expect((await runPerch(["models", "ls"], viewEnv)).stdout).toMatch(/own-Q8_0/);
    const catalogFile = path.join(home, "model_catalog.json");
    const before = JSON.parse(fs.readFileSync(catalogFile, "utf8"));
    const viewed = await runPerch(["models", "ls", "--models-dir", other], viewEnv);
    expect(viewed.code).toBe(0);
    expect(viewed.stdout).toMatch(/elsewhere-Q8_0/);
    // Was listed as missing, and marked missing in the file a running server of this base reads.
    expect(viewed.stdout).not.toMatch(/own-Q8_0/);
    const after = JSON.parse(fs.readFileSync(catalogFile, "utf8"));
    expect(after.models["own-Q8_0"]).toEqual(before.models["own-Q8_0"]);
    expect((await runPerch(["models", "ls"], viewEnv)).stdout).toMatch(/own-Q8_0\s+[\d.]+ KB/);
  });

  it("pull with the Hub unreachable says so and names HF_ENDPOINT", async () => {
    const pulled = await runPerch(["pull", "acme/some-GGUF:Q4_K_M"], {
      ...env,
      HF_ENDPOINT: "http://127.0.0.1:9",
    });
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toMatch(
      /^perch pull: .*Is the hub reachable\? A mirror can be set with HF_ENDPOINT/,
    );
    expect(pulled.stderr).toMatch(/\(upstream_error\)\n$/);
  });

  it("a failed download in this process is said once, by the command (not also as a raw log line)", async () => {
    const { main } = await ensureTestModels();
    const hub = await startFakeHub();
    const remote = path.join(base, "remote-cut");
    fs.mkdirSync(remote, { recursive: true });
    fs.copyFileSync(main, path.join(remote, "cut-Q8_0.gguf"));
    hub.addRepo({ id: "acme/cut-GGUF", dir: remote });
    hub.dropNextDownloadAfter(64 * 1024);
    try {
      const pulled = await runPerch(["pull", "acme/cut-GGUF:Q8_0"], { ...env, HF_ENDPOINT: hub.url });
      expect(pulled.code).toBe(1);
      expect(pulled.stderr).toContain("Run the same command again to resume.");
      expect(pulled.stderr).not.toContain('"level"');
      expect(pulled.stderr.match(/^perch pull: /gm)).toHaveLength(1);
    } finally {
      await hub.close();
    }
  });

  it("a path the user named that is missing or not a folder gets a stable code, not a stack", async () => {
    const file = path.join(base, "a-file");
    fs.writeFileSync(file, "");
    const made = await runPerch(["models", "make-test-model", "--models-dir", path.join(file, "x")], env);
    expect(made.code).toBe(1);
    expect(made.stderr).toMatch(/^perch models make-test-model: ENOTDIR: .* \(invalid_request\)\n$/);
    const scored = await runPerch(
      ["eval", "score", "--benchmark", "gsm8k", "--responses", path.join(base, "no-such.jsonl")],
      env,
    );
    expect(scored.code).toBe(1);
    expect(scored.stderr).toMatch(/ENOENT: no such file or directory.*\(not_found\)/);
    expect(scored.stderr).not.toMatch(/\n\s+at /);
    // eval run said internal_error for the same missing file.
    const { main } = await ensureTestModels();
    fs.copyFileSync(main, path.join(base, "models", "dataset-check-Q8_0.gguf"));
    const ran = await runPerch(
      [
        "eval",
        "run",
        "--model",
        "dataset-check-Q8_0",
        "--benchmark",
        "gsm8k",
        "--dataset",
        path.join(base, "no-such.jsonl"),
      ],
      env,
    );
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/The dataset file .*no-such\.jsonl cannot be read.*\(not_found\)/);
  });

  it("a base folder that is no folder is a storage_error naming it for every command, not a stack", async () => {
    // The message blamed settings.json and advised moving it aside.
    const file = path.join(base, "not-a-folder");
    fs.writeFileSync(file, "");
    for (const command of [
      ["eval", "run", "--model", "x", "--benchmark", "gsm8k", "--limit", "1"],
      ["serve", "--port", "0"],
      ["bench", "run", "--model", "x"],
      ["models", "list"],
    ]) {
      const result = await runPerch([...command, "--base-path", file], env);
      // 78 where settings.json is read first (the configuration exit code), 1 where the folder is made first.
      expect([1, 78], command.join(" ")).toContain(result.code);
      expect(result.stderr).toContain(`its base folder ${file} is not a folder`);
      expect(result.stderr).not.toContain(".broken");
      expect(result.stderr).toMatch(/\(storage_error\)\n$/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("a file where <base>/logs belongs is named as such, not as a permissions problem", async () => {
    const home = path.join(base, "logs-is-a-file");
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, "logs"), "");
    const result = await runPerch(["serve", "--port", "0", "--base-path", home], env);
    expect(result.code).not.toBe(0);
    // It said "Perch cannot write its folder … fix that folder's permissions (EEXIST … mkdir logs)".
    expect(result.stderr).toContain(`${path.join(home, "logs")} is a file, where Perch keeps a folder`);
    expect(result.stderr).not.toMatch(/permissions/);
    expect(result.stderr).toMatch(/\(storage_error\)\n$/);
  });

  it("perch run's private server leaves the base's server record alone", async () => {
    // The base's real server, as its record names it: a live process on some port.
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    const record = path.join(base, "server.json");
    try {
      const content = JSON.stringify({
        url: "http://127.0.0.1:9",
        pid: holder.pid,
        started_at: new Date().toISOString(),
      });
      fs.writeFileSync(record, content);
      // A folder that server does not serve: run starts a private server of its own.
      const other = path.join(base, "other-models");
      fs.mkdirSync(other, { recursive: true });
      fs.copyFileSync((await ensureTestModels()).main, path.join(other, "private-Q8_0.gguf"));
      const ran = await runPerch(["run", "private-Q8_0", "hi", "--models-dir", other], env);
      expect(ran.stderr).toBe("");
      expect(ran.code).toBe(0);
      expect(fs.readFileSync(record, "utf8")).toBe(content);
    } finally {
      holder.kill();
      fs.rmSync(record, { force: true });
    }
  });

  it("perch run's private server closes on SIGTERM: the answer ends saying why, exit 143", async () => {
    const other = path.join(base, "term-models");
    fs.mkdirSync(other, { recursive: true });
    fs.copyFileSync((await ensureTestModels()).main, path.join(other, "term-Q8_0.gguf"));
    const schema = path.join(base, "numbers.json");
    fs.writeFileSync(schema, JSON.stringify(neverEndingFormat.response_format.json_schema.schema));
    const child = spawn(
      process.execPath,
      [perchBin, "run", "term-Q8_0", "numbers", "--format", schema, "--models-dir", other],
      { cwd: repositoryRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // The answer is streaming: then the stop request.
    for (let i = 0; i < 600 && !stdout.includes("["); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(stdout).toContain("[");
    child.kill("SIGTERM");
    // Was: killed by the signal at once (code null), the private server never closed.
    expect(await exited).toBe(143);
    expect(stderr).toContain("shutting down");
  });

  it("ps --json is JSON without a server too", async () => {
    const ps = await runPerch(["ps", "--json"], env);
    expect(ps.code).toBe(0);
    // The shape a server answers, idle: a script reads the same fields either way.
    expect(JSON.parse(ps.stdout)).toEqual({
      running: false,
      url: "http://127.0.0.1:9",
      loadedModels: [],
      models: [],
      totals: expect.objectContaining({ activeSequences: 0, queueDepth: 0, tokensPerSecond: 0 }),
      at: expect.any(String),
    });
  });

  it("models ls --json stays JSON when a model file cannot be read (the warning goes to stderr)", async () => {
    const broken = path.join(base, "models", "broken-Q8_0.gguf");
    fs.mkdirSync(path.dirname(broken), { recursive: true });
    fs.writeFileSync(broken, "not a gguf file at all");
    try {
      const listed = await runPerch(["models", "ls", "--json"], env);
      expect(listed.code).toBe(0);
      const rows = JSON.parse(listed.stdout) as { id: string }[];
      expect(rows.map((row) => row.id)).toContain("broken-Q8_0");
      expect(listed.stderr).toContain("could not read the GGUF header");
    } finally {
      fs.rmSync(broken);
    }
  });

  it("logs piped into a reader that stops early ends quietly (no EPIPE stack)", async () => {
    const logs = path.join(base, "logs");
    fs.mkdirSync(logs, { recursive: true });
    const lines = Array.from({ length: 5000 }, (_, i) =>
      JSON.stringify({ level: 30, time: i, msg: `line ${i}` }),
    );
    fs.writeFileSync(path.join(logs, "perch.1.log"), `${lines.join("\n")}\n`);
    fs.symlinkSync(path.join(logs, "perch.1.log"), path.join(logs, "current.log"));
    try {
      const { stdout, stderr, code } = await new Promise<{
        stdout: string;
        stderr: string;
        code: number | null;
      }>((resolve) => {
        const child = spawn(process.execPath, [perchBin, "logs", "-n", "5000"], {
          cwd: repositoryRoot,
          env: { ...process.env, ...env },
        });
        let out = "";
        let err = "";
        // Like `head -c 100`: read a little, then close the pipe.
        child.stdout.once("data", (chunk: Buffer) => {
          out = chunk.toString().slice(0, 100);
          child.stdout.destroy();
        });
        child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        child.on("close", (exitCode) => resolve({ stdout: out, stderr: err, code: exitCode }));
      });
      expect(stdout).toContain("line 0");
      expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(code).toBe(0);
    } finally {
      fs.rmSync(logs, { recursive: true, force: true });
    }
  });

  it("logs before any server ran says where the log will be", async () => {
    const logs = await runPerch(["logs"], env);
    expect(logs.code).toBe(1);
    expect(logs.stderr).toContain(`No log in ${path.join(base, "logs")} yet`);
  });

  it("perch --version does not import node-llama-cpp, the server or the engine", async () => {
    const trace = path.join(base, "imports.txt");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        path.join(repositoryRoot, "tests/helpers/traceImports/register.mjs"),
        perchBin,
        "--version",
      ],
      { env: { ...process.env, TRACE_IMPORTS_FILE: trace } },
    );
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const imported = fs.readFileSync(trace, "utf8");
    // The compiled build when it is up to date, the TypeScript sources through tsx otherwise.
    expect(imported).toMatch(/src-main\/cli\/main\.(?:ts|js)/);
    expect(imported).not.toContain("node-llama-cpp");
    expect(imported).not.toMatch(/src-main\/server\/(startServer|createServer|registerRoutes)/);
    expect(imported).not.toContain("src-main/engine/EnginePool");
    expect(imported).not.toContain("fastify");
  });

  it("completion bash completes commands, subcommands and options", async () => {
    const script = await runPerch(["completion", "bash"], env);
    expect(script.code).toBe(0);
    const file = path.join(base, "completion.sh");
    fs.writeFileSync(file, script.stdout);
    // A base folder whose catalog Perch wrote (read by the script, no Perch started).
    const home = path.join(base, "completion-home");
    fs.mkdirSync(home, { recursive: true });
    const entry = (id: string) => ({ id, path: `/m/${id}.gguf`, missing: false });
    fs.writeFileSync(
      path.join(home, "model_catalog.json"),
      `${JSON.stringify({ version: 1, models: { a: entry("qwen-coder.Q4_K_M"), b: entry("acme/tiny-GGUF/tiny-Q8_0") } }, null, 2)}\n`,
    );
    const complete = async (...words: string[]) => {
      const { stdout } = await promisify(execFile)(
        "bash",
        [
          "-c",
          `source ${file}; COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _perch_completion; echo "\${COMPREPLY[*]}"`,
        ],
        { env: { ...process.env, PERCH_HOME: home } },
      );
      return stdout.trim().split(" ");
    };
    // Model ids where a model goes, benchmark names after --benchmark.
    expect(await complete("perch", "run", "")).toEqual(["qwen-coder.Q4_K_M", "acme/tiny-GGUF/tiny-Q8_0"]);
    expect(await complete("perch", "load", "q")).toEqual(["qwen-coder.Q4_K_M"]);
    expect(await complete("perch", "bench", "run", "--model", "a")).toEqual(["acme/tiny-GGUF/tiny-Q8_0"]);
    expect(await complete("perch", "eval", "run", "--benchmark", "h")).toEqual(["humaneval", "hellaswag"]);
    // Each name of a comma-separated list; the names before it stay.
    expect(await complete("perch", "eval", "run", "--benchmark", "gsm8k,h")).toEqual([
      "gsm8k,humaneval",
      "gsm8k,hellaswag",
    ]);
    // A --base-path on the line wins over PERCH_HOME (also in bash's split "--base-path = dir" form).
    const other = path.join(base, "completion-other");
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(
      path.join(other, "model_catalog.json"),
      `${JSON.stringify({ version: 1, models: { c: entry("other-model.Q8_0") } }, null, 2)}\n`,
    );
    expect(await complete("perch", "--base-path", other, "load", "")).toEqual(["other-model.Q8_0"]);
    expect(await complete("perch", "--base-path", "=", other, "run", "")).toEqual(["other-model.Q8_0"]);
    expect(await complete("perch", "bench", "run", "--base-path", other, "--model", "")).toEqual([
      "other-model.Q8_0",
    ]);
    // Not where a prompt or a remote reference goes.
    expect(await complete("perch", "run", "qwen-coder.Q4_K_M", "")).toEqual([""]);
    expect(await complete("perch", "pull", "")).toEqual([""]);
    expect(await complete("perch", "p")).toEqual(["pull", "ps"]);
    expect(await complete("perch", "eval", "")).toEqual(["run", "score"]);
    expect(await complete("perch", "models", "l")).toEqual(["list", "ls"]);
    // A command's fixed argument choices complete like subcommands.
    expect(await complete("perch", "completion", "")).toEqual(["bash", "zsh"]);
    expect(await complete("perch", "load", "--")).toEqual(
      expect.arrayContaining(["--ctx", "--ttl", "--pin", "--base-path", "--help"]),
    );
    const zsh = await runPerch(["completion", "zsh"], env);
    expect(zsh.stdout).toMatch(/^#compdef perch/);
    expect(zsh.stdout).toContain("bashcompinit");
  });
});
