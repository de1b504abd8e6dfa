import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { performanceResultSchema } from "../../../src-shared/contracts/performance.js";
import { hubSource } from "../../../src-main/evals/datasets/hubSources.js";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import {
  runPerch,
  perchBin,
  repositoryRoot,
  startPerchServe,
  waitFor,
  type PerchServe,
} from "../../helpers/runPerch.js";
import { ensureTestModels } from "../../helpers/testModels.js";

/*
 * The model-management commands as a user runs them: a real `perch serve` in its own process on
 * the generated test model, a local fake Hub, and each command a new `perch` process.
 */
let base: string;
let hub: FakeHub;
let serve: PerchServe;
let env: NodeJS.ProcessEnv;
let modelId: string;
let remoteFile: string;

beforeAll(async () => {
  const models = await ensureTestModels();
  base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-cli-"));
  fs.mkdirSync(path.join(base, "models"));
  fs.symlinkSync(models.main, path.join(base, "models", path.basename(models.main)));
  modelId = path.basename(models.main).replace(/\.gguf$/, "");
  hub = await startFakeHub();
  const remote = path.join(base, "remote");
  fs.mkdirSync(remote);
  remoteFile = path.join(remote, "tiny-chat-Q8_0.gguf");
  fs.copyFileSync(models.main, remoteFile);
  hub.addRepo({ id: "acme/tiny-chat-GGUF", dir: remote });
  // GSM8K's layout at its pinned revision, with three made-up questions.
  const gsm8k = hubSource("gsm8k", "zero_shot");
  const datasetDir = path.join(base, "gsm8k");
  fs.mkdirSync(path.dirname(path.join(datasetDir, gsm8k.files[0])), { recursive: true });
  parquetWriteFile({
    filename: path.join(datasetDir, gsm8k.files[0]),
    columnData: [
      { name: "question", data: ["What is 1+1?", "What is 2+3?", "What is 4+4?"] },
      { name: "answer", data: ["1+1=2\n#### 2", "2+3=5\n#### 5", "4+4=8\n#### 8"] },
    ],
  });
  hub.addRepo({ id: gsm8k.repo, dir: datasetDir, type: "dataset", sha: gsm8k.revision });
  serve = await startPerchServe(["--base-path", base, "--no-starter-model"], {
    HF_ENDPOINT: hub.url,
    PERCH_LOG_LEVEL: "info",
  });
  env = { PERCH_HOME: base, PERCH_HOST: serve.url, PERCH_LOG_LEVEL: "warn" };
});

afterAll(async () => {
  await serve?.stop();
  await hub?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

describe("perch against a running server", () => {
  it("models ls prints a table with a header, the model's facts and its state; --json the rows", async () => {
    const table = await runPerch(["models", "ls"], env);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trim().split("\n");
    expect(header).toMatch(/^NAME\s+SIZE\s+QUANT\s+PARAMS\s+SOURCE\s+LOADED\s+ACCURACY\s+SPEED$/);
    const row = rows.find((line) => line.startsWith(modelId));
    expect(row).toMatch(/KB\s+Q8_0\s+\d+K\s+local\s+no\s+-\s+-/);
    const json = await runPerch(["models", "list", "--json"], env);
    const parsed = JSON.parse(json.stdout) as { id: string; gguf: { quantization: string } }[];
    expect(parsed.find((model) => model.id === modelId)?.gguf.quantization).toBe("Q8_0");
  });

  it("ps shows the model a chat loaded, with memory, TTL left and requests", async () => {
    expect((await runPerch(["ps"], env)).stdout).toContain("No model is loaded.");
    const chat = await fetch(`${serve.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: modelId, messages: [{ role: "user", content: "hi" }], max_tokens: 4 }),
    });
    expect(chat.status).toBe(200);
    const ps = await runPerch(["ps"], env);
    expect(ps.code).toBe(0);
    const [header, row] = ps.stdout.trim().split("\n");
    expect(header).toMatch(/^NAME\s+STATE\s+MEMORY\s+CONTEXT\s+TTL LEFT\s+ACTIVE\s+QUEUED\s+TOK\/S$/);
    expect(row).toMatch(
      new RegExp(`^${modelId.replace(/\./g, "\\.")}\\s+loaded\\s+[\\d.]+ MB\\s+\\d+\\s+\\d+m\\d+s\\s+0\\s+0`),
    );
  });

  it("finds the server started with --port through its base path alone (no PERCH_HOST)", async () => {
    // The server was started with `--port 0`: only the address it recorded in the base says where.
    const record = JSON.parse(fs.readFileSync(path.join(base, "server.json"), "utf8")) as { url: string };
    expect(record.url).toBe(serve.url);
    const ps = await runPerch(["ps"], { PERCH_HOME: base, PERCH_LOG_LEVEL: "warn" });
    expect(ps.code).toBe(0);
    expect(ps.stdout).toMatch(new RegExp(`^${modelId.replace(/\./g, "\\.")}\\s+loaded`, "m"));
    // The listing is the server's (it knows the model is loaded): `rm` and the rest go through it too.
    const listed = JSON.parse(
      (await runPerch(["models", "ls", "--json"], { PERCH_HOME: base, PERCH_LOG_LEVEL: "warn" })).stdout,
    ) as { id: string; load: { state: string } }[];
    expect(listed.find((row) => row.id === modelId)?.load.state).toBe("loaded");
  });

  it("the server's log file tells its start too (lines from before the file opened)", async () => {
    const log = fs.readFileSync(path.join(base, "logs", "current.log"), "utf8");
    expect(log.indexOf('"msg":"core ready"')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('"msg":"core ready"')).toBeLessThan(log.indexOf('"msg":"serving"'));
  });

  it("a second perch serve on the same base folder is refused, and the first stays findable", async () => {
    const second = await runPerch(["serve", "--base-path", base, "--port", "0", "--no-starter-model"], {
      PERCH_LOG_LEVEL: "warn",
    });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain("Another Perch server");
    expect(second.stderr).toContain(serve.url);
    const record = JSON.parse(fs.readFileSync(path.join(base, "server.json"), "utf8")) as { url: string };
    expect(record.url).toBe(serve.url);
    expect((await runPerch(["ps"], { PERCH_HOME: base, PERCH_LOG_LEVEL: "warn" })).stdout).not.toContain(
      "No server is running",
    );
  });

  it("unload frees the model, load brings it back with the given TTL and pin", async () => {
    const unload = await runPerch(["unload", modelId], env);
    expect(unload).toMatchObject({ code: 0, stdout: `Unloaded ${modelId}\n` });
    expect((await runPerch(["ps"], env)).stdout).toContain("No model is loaded.");
    const again = await runPerch(["unload", modelId], env);
    expect(again.stdout).toBe(`${modelId} was not loaded\n`);

    // TTL 0 is what ps shows as "never": said so, not "ttl 0 s".
    const never = await runPerch(["load", modelId, "--ttl", "0"], env);
    expect(never.stdout).toMatch(new RegExp(`^Loaded ${modelId} \\(.*never unloads\\)\n$`));
    expect((await runPerch(["ps"], env)).stdout).toMatch(/never/);
    expect((await runPerch(["unload", modelId], env)).code).toBe(0);

    const load = await runPerch(["load", modelId, "--ttl", "120", "--pin"], env);
    expect(load.code).toBe(0);
    expect(load.stdout).toContain(`Loaded ${modelId}`);
    const stats = JSON.parse((await runPerch(["ps", "--json"], env)).stdout) as {
      running: boolean;
      url: string;
      loadedModels: { id: string; pinned: boolean; ttlSeconds: number }[];
    };
    // The same shape as without a server (`running`, `url`), with the server's stats.
    expect(stats).toMatchObject({ running: true, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(stats.loadedModels).toEqual([
      expect.objectContaining({ id: modelId, pinned: true, ttlSeconds: 120 }),
    ]);
    expect((await runPerch(["ps"], env)).stdout).toMatch(/pinned/);
    // The settings were saved like the dashboard saves them.
    const settings = JSON.parse(fs.readFileSync(path.join(base, "model_settings.json"), "utf8"));
    expect(JSON.stringify(settings)).toContain('"pinned":true');
    await runPerch(["load", modelId, "--no-pin"], env);
    expect((await runPerch(["unload", modelId], env)).code).toBe(0);
  });

  it("load, unload and run take the name Ollama's /api/tags lists (<id>:latest)", async () => {
    const tagged = `${modelId}:latest`;
    const load = await runPerch(["load", tagged], env);
    expect(load).toMatchObject({ code: 0 });
    expect(load.stdout).toContain(`Loaded ${modelId}`);
    const ran = await runPerch(["run", tagged, "hi"], env);
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect((await runPerch(["unload", tagged], env)).stdout).toBe(`Unloaded ${modelId}\n`);
  });

  it("load --ctx brings the model up at the size asked for, also after the dashboard saved that size", async () => {
    const contextOf = async () => {
      // The lane (and its context) exists once a request ran.
      const chat = await fetch(`${serve.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: modelId, messages: [{ role: "user", content: "hi" }], max_tokens: 2 }),
      });
      expect(chat.status).toBe(200);
      const stats = JSON.parse((await runPerch(["ps", "--json"], env)).stdout) as {
        models: { modelId: string; contextSize: number }[];
      };
      return stats.models.find((lane) => lane.modelId === modelId)?.contextSize;
    };
    expect((await runPerch(["load", modelId, "--ctx", "256"], env)).code).toBe(0);
    expect(await contextOf()).toBe(256);
    const saved = await fetch(`${serve.url}/admin/api/models/${encodeURIComponent(modelId)}/settings`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ context_size: 512 }),
    });
    expect(saved.status).toBe(200);
    expect(await contextOf()).toBe(256);
    const load = await runPerch(["load", modelId, "--ctx", "512"], env);
    expect(load.stdout).toContain("context 512");
    expect(await contextOf()).toBe(512);
    await fetch(`${serve.url}/admin/api/models/${encodeURIComponent(modelId)}/settings`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect((await runPerch(["unload", modelId], env)).code).toBe(0);
  });

  it("sees a model file copied in while the server runs: models ls and load find it", async () => {
    const copy = path.join(base, "models", "copied-in-Q8_0.gguf");
    fs.copyFileSync(fs.realpathSync(path.join(base, "models", `${modelId}.gguf`)), copy);
    try {
      expect((await runPerch(["models", "ls"], env)).stdout).toMatch(/^copied-in-Q8_0\s/m);
      const load = await runPerch(["load", "copied-in-Q8_0"], env);
      expect(load).toMatchObject({ code: 0 });
      expect((await runPerch(["unload", "copied-in-Q8_0"], env)).code).toBe(0);
    } finally {
      fs.rmSync(copy, { force: true });
    }
  });

  it("load of an unknown model says so with the server's code", async () => {
    const load = await runPerch(["load", "no-such-model"], env);
    expect(load.code).toBe(1);
    expect(load.stderr).toBe("perch load: Model 'no-such-model' not found. (model_not_found)\n");
  });

  it("pull downloads from the Hub with progress and the sha256 check, and resumes a cut download", async () => {
    hub.dropNextDownloadAfter(300 * 1024);
    const cut = await runPerch(["pull", "acme/tiny-chat-GGUF:Q8_0"], env);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain("Run the same command again to resume.");
    const part = path.join(base, "models", "acme", "tiny-chat-GGUF", "tiny-chat-Q8_0.gguf.part");
    const kept = fs.statSync(part).size;
    expect(kept).toBeGreaterThan(0);

    const pulled = await runPerch(["pull", "acme/tiny-chat-GGUF"], env);
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toMatch(/Resuming: .* already on disk/);
    expect(pulled.stderr).toContain("progress 100%");
    expect(pulled.stderr).toMatch(/tiny-chat-Q8_0\.gguf: sha256 [0-9a-f]{64} ok/);
    expect(pulled.stdout).toContain("Pulled acme/tiny-chat-GGUF/tiny-chat-Q8_0.");
    expect(hub.requests.some((request) => request.range?.startsWith(`bytes=${kept}-`))).toBe(true);
    const target = path.join(base, "models", "acme", "tiny-chat-GGUF", "tiny-chat-Q8_0.gguf");
    expect(fs.readFileSync(target).equals(fs.readFileSync(remoteFile))).toBe(true);
    const table = (await runPerch(["models", "ls"], env)).stdout;
    expect(table).toMatch(/acme\/tiny-chat-GGUF\/tiny-chat-Q8_0\s+[\d.]+ KB\s+Q8_0\s+\S+\s+HF\s+no/);

    // Pulled again while unchanged on the Hub: the file is checked, not downloaded again.
    const before = fs.statSync(target).ino;
    const downloads = hub.requests.filter((request) => request.path.includes("/resolve/")).length;
    const again = await runPerch(["pull", "acme/tiny-chat-GGUF"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Pulled acme/tiny-chat-GGUF/tiny-chat-Q8_0.");
    expect(fs.statSync(target).ino).toBe(before);
    expect(hub.requests.filter((request) => request.path.includes("/resolve/")).length).toBe(downloads);
  });

  it("pull names what a repo offers when the quantization does not exist, and refuses bad references", async () => {
    const missing = await runPerch(["pull", "acme/tiny-chat-GGUF:Q2_K"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("has no Q2_K GGUF (available: Q8_0)");
    const bad = await runPerch(["pull", "not a repo"], env);
    expect(bad.stderr).toMatch(/is not a model reference.*\(invalid_request\)/);
  });

  it("pull of a gated repo names HF_TOKEN, not the hub's reachability", async () => {
    hub.addRepo({ id: "acme/gated-GGUF", dir: path.dirname(remoteFile) });
    hub.fail("acme/gated-GGUF", 401);
    const pulled = await runPerch(["pull", "acme/gated-GGUF:Q8_0"], env);
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toContain("the hub refused access (401)");
    expect(pulled.stderr).toContain("set HF_TOKEN");
    expect(pulled.stderr).not.toContain("Is the hub reachable");
    // Through the server, this shell's HF_TOKEN does not count: said so.
    expect(pulled.stderr).toContain("The server downloads with its own token");
  });

  it("rm deletes the model's files", async () => {
    const removed = await runPerch(["rm", "acme/tiny-chat-GGUF/tiny-chat-Q8_0"], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("Deleted acme/tiny-chat-GGUF/tiny-chat-Q8_0");
    expect(fs.existsSync(path.join(base, "models", "acme", "tiny-chat-GGUF", "tiny-chat-Q8_0.gguf"))).toBe(
      false,
    );
    const rows = JSON.parse((await runPerch(["models", "ls", "--json"], env)).stdout) as {
      id: string;
      missing: boolean;
    }[];
    expect(rows.filter((row) => row.id.startsWith("acme/") && !row.missing)).toEqual([]);
  });

  it("eval run queues on the running server and prints the summary", async () => {
    const evaluated = await runPerch(
      ["eval", "run", "--model", modelId, "--benchmark", "GSM8K", "--limit", "2"],
      env,
    );
    expect(evaluated.code).toBe(0);
    expect(evaluated.stderr).toMatch(/Running on the server at http:\/\/127\.0\.0\.1:\d+ \(run /);
    expect(evaluated.stdout).toMatch(
      /^gsm8k \(zero_shot\): \d\/2 = \d+\.\d% \| thinking (on|off) \| .* \| \S+\n$/,
    );
    const results = fs.readdirSync(path.join(base, "benchmarks", "accuracy", "results"));
    expect(results.filter((name) => name.endsWith(".json"))).toHaveLength(1);
  });

  it("eval run --offline on the server reads its dataset cache and never downloads", async () => {
    // GSM8K is cached since the run above; MMLU is not (the fake Hub does not have it either).
    const cached = await runPerch(
      ["eval", "run", "--model", modelId, "--benchmark", "gsm8k", "--limit", "1", "--offline"],
      env,
    );
    expect(cached.code).toBe(0);
    const missing = await runPerch(
      ["eval", "run", "--model", modelId, "--benchmark", "mmlu", "--limit", "1", "--offline"],
      env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("dataset file not cached (offline)");
    expect(missing.stderr).toContain("(not_found)");
  });

  it("bench run runs on the running server's engine with the batch prompt length given", async () => {
    const benched = await runPerch(
      [
        "bench",
        "run",
        "--model",
        modelId,
        "--prompt-lengths",
        "128",
        "--batch-sizes",
        "2",
        "--batch-prompt-length",
        "128",
        "--generated-tokens",
        "8",
      ],
      env,
    );
    expect(benched.code).toBe(0);
    expect(benched.stderr).toContain(`Running on the server at ${serve.url}.`);
    expect(benched.stdout).toContain("Single request");
    const dir = path.join(base, "benchmarks", "performance", "results");
    const [file] = fs.readdirSync(dir).filter((name) => name.endsWith(".json"));
    const result = performanceResultSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
    expect(result.plan).toMatchObject({ prompt_lengths: [128], batch_sizes: [2], batch_prompt_tokens: 128 });
  });

  it("logs shows the server's log and -f follows new lines", async () => {
    const logs = await runPerch(["logs", "-n", "100"], env);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(/INFO\s+serve: serving \{"url":"http/);
    await runPerch(["unload", modelId], env); // so the load below is a real one, and logged
    const follow = spawn(process.execPath, [perchBin, "logs", "-f", "-n", "1"], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env },
    });
    let followed = "";
    follow.stdout.on("data", (chunk: Buffer) => (followed += chunk.toString()));
    try {
      // The last line shows first; then a line written after `logs -f` started (a model load).
      await waitFor(() => followed.length > 0, 30_000, "the last log line");
      expect((await runPerch(["load", modelId], env)).code).toBe(0);
      await waitFor(() => followed.includes("engine: model loaded"), 30_000, "the followed load line");
    } finally {
      const exited = new Promise((resolve) => follow.once("exit", resolve));
      follow.kill("SIGINT");
      expect(await exited).toBe(0);
    }
  });

  it("serve on a port in use says who holds it and how to pick another, without a stack", async () => {
    const port = new URL(serve.url).port;
    // Another base folder (the same one is refused before the port is tried: see above).
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "perch-cli-other-"));
    const blocker = net.createServer();
    try {
      const taken = await runPerch(
        ["serve", "--base-path", other, "--port", port, "--no-starter-model"],
        env,
      );
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use by another Perch server`);
      // `perch ps` on the other base would not take it for its own: PERCH_HOST names it.
      expect(taken.stderr).toContain(
        `of another base folder (see it with \`PERCH_HOST=127.0.0.1:${port} perch ps\`)`,
      );
      expect(taken.stderr).toContain("perch serve --port <n>");
      expect(taken.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);

      await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
      const blockedPort = (blocker.address() as net.AddressInfo).port;
      const blocked = await runPerch(
        ["serve", "--base-path", other, "--port", String(blockedPort), "--no-starter-model"],
        env,
      );
      expect(blocked.code).toBe(1);
      expect(blocked.stderr).toContain(`Port ${blockedPort} on 127.0.0.1 is already in use by`);
      if (process.platform === "linux") expect(blocked.stderr).toContain(`(pid ${process.pid})`);
    } finally {
      blocker.close();
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
