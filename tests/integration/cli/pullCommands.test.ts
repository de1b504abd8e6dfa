import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import { perchBin, repositoryRoot, runPerch, startPerchServe, waitFor } from "../../helpers/runPerch.js";
import { tinyGgufBytes } from "../../helpers/writeTinyGguf.js";

/*
 * `perch pull` as a user types it, against a local fake Hub: quant labels with hyphens, pasted
 * file addresses, --models-dir before the model, a full disk, a server stopped mid-download, and
 * a model the server is already downloading. Each command is a new `perch` process.
 */
let base: string;
let hub: FakeHub;
let env: NodeJS.ProcessEnv;

function repo(id: string, files: Record<string, number>): string {
  const dir = path.join(base, "remote", id.replace("/", "_"), String(Math.random()).slice(2));
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, padding] of Object.entries(files))
    fs.writeFileSync(path.join(dir, file), tinyGgufBytes({ padding }));
  return dir;
}

/** A `perch` process whose output the test watches while it runs. */
function spawnPerch(args: string[], processEnv: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [perchBin, ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, ...processEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { exited, output: () => ({ stdout, stderr }) };
}

const modelFile = (...parts: string[]) => path.join(base, "models", ...parts);
const same = (a: string, b: string) => fs.readFileSync(a).equals(fs.readFileSync(b));

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-cli-pull-"));
  hub = await startFakeHub();
  // A closed port: a developer's own server is not found; each test names its own.
  env = { PERCH_HOME: base, PERCH_HOST: "127.0.0.1:9", PERCH_LOG_LEVEL: "warn", HF_ENDPOINT: hub.url };
});

afterAll(async () => {
  await hub?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

describe("perch pull", () => {
  it("pulls a quant whose label has a hyphen (UD-Q4_K_XL), also with --models-dir before the model", async () => {
    hub.addRepo({
      id: "acme/ud-GGUF",
      dir: repo("acme/ud-GGUF", { "m-UD-Q4_K_XL.gguf": 10, "m-Q8_0.gguf": 10 }),
    });
    const pulled = await runPerch(["pull", "acme/ud-GGUF:UD-Q4_K_XL"], env);
    expect(pulled.stderr).not.toContain("is not a model reference");
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain("Pulled acme/ud-GGUF/m-UD-Q4_K_XL.");

    // The variadic --models-dir took the model name too: "missing required argument 'model'".
    const other = path.join(base, "other-models");
    fs.mkdirSync(other);
    const into = await runPerch(["pull", "--models-dir", other, "hf.co/acme/ud-GGUF:UD-Q4_K_XL"], env);
    expect(into.stderr).not.toContain("missing required argument");
    expect(into.code).toBe(0);
    expect(fs.existsSync(path.join(other, "acme", "ud-GGUF", "m-UD-Q4_K_XL.gguf"))).toBe(true);

    // Several folders: the option repeated, or commas.
    const third = path.join(base, "third-models");
    fs.mkdirSync(third);
    fs.writeFileSync(path.join(third, "third.gguf"), tinyGgufBytes());
    for (const args of [["--models-dir", other, "--models-dir", third], [`--models-dir=${other},${third}`]]) {
      const listed = await runPerch(["models", "ls", "--json", ...args], env);
      expect(listed.code, listed.stderr).toBe(0);
      const ids = (JSON.parse(listed.stdout) as { id: string }[]).map((row) => row.id).sort();
      expect(ids).toEqual(["acme/ud-GGUF/m-UD-Q4_K_XL", "third"]);
    }
  });

  it("takes a pasted file address: resolve/blob/<rev>/ is the revision, ?download=true is dropped", async () => {
    const oldDir = repo("acme/multi-GGUF", { "multi-Q8_0.gguf": 1000, "multi-Q4_K_M.gguf": 10 });
    const oldSha = hub.addRepo({ id: "acme/multi-GGUF", dir: oldDir });
    const newDir = repo("acme/multi-GGUF", { "multi-Q8_0.gguf": 2000, "multi-Q4_K_M.gguf": 10 });
    hub.pushRevision("acme/multi-GGUF", newDir);
    const target = modelFile("acme", "multi-GGUF", "multi-Q8_0.gguf");

    const head = await runPerch(
      ["pull", "https://huggingface.co/acme/multi-GGUF/blob/main/multi-Q8_0.gguf"],
      env,
    );
    expect(head.stderr).not.toContain("is not a GGUF model");
    expect(head.code).toBe(0);
    expect(same(target, path.join(newDir, "multi-Q8_0.gguf"))).toBe(true);

    const pinned = await runPerch(
      ["pull", `https://huggingface.co/acme/multi-GGUF/resolve/${oldSha}/multi-Q8_0.gguf?download=true`],
      env,
    );
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stderr).toContain(`@${oldSha.slice(0, 12)}`);
    expect(same(target, path.join(oldDir, "multi-Q8_0.gguf"))).toBe(true);
  });

  it("a storage error (a full disk, a folder it cannot write) says how to resume once", async () => {
    hub.addRepo({ id: "acme/big-GGUF", dir: repo("acme/big-GGUF", { "big.Q8_0.gguf": 64 * 1024 }) });
    // The part's sidecar cannot be written (a folder holds its name): the disk refusing a write,
    // as a full one does (ENOSPC needs a small filesystem, which a test cannot mount everywhere).
    const sidecar = modelFile("acme", "big-GGUF", "big.Q8_0.gguf.part.json");
    fs.mkdirSync(path.join(sidecar, "blocker"), { recursive: true });
    const pulled = await runPerch(["pull", "acme/big-GGUF"], env);
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toMatch(/Could not write .*big\.Q8_0\.gguf\.part: .*\(storage_error\)\n$/);
    // Was: "…then run the same download again to resume. Run the same command again to resume."
    expect(pulled.stderr.match(/resume/g)).toHaveLength(1);
    expect(pulled.stderr).not.toContain("Is the hub reachable");
    fs.rmSync(sidecar, { recursive: true });
  });

  it("the loser of a race with another perch pull gets one clean message (no 'Resuming', no resume advice)", async () => {
    hub.addRepo({ id: "acme/race-GGUF", dir: repo("acme/race-GGUF", { "race.Q8_0.gguf": 3 * 1024 * 1024 }) });
    // 2 s between 64 KiB chunks: the winner holds the download until the loser has tried.
    hub.setChunkDelay(2000);
    try {
      const winner = spawnPerch(["pull", "acme/race-GGUF"], env);
      const part = modelFile("acme", "race-GGUF", "race.Q8_0.gguf.part");
      await waitFor(() => fs.existsSync(part) && fs.statSync(part).size > 0, 30_000, "the winner's bytes");
      const loser = await runPerch(["pull", "acme/race-GGUF"], env);
      expect(loser.code).toBe(1);
      expect(loser.stderr).toContain("is being downloaded by another Perch process");
      expect(loser.stderr).not.toContain("Resuming");
      expect(loser.stderr).not.toContain("Run the same command again");
      hub.setChunkDelay(0);
      expect(await winner.exited).toBe(0);
    } finally {
      hub.setChunkDelay(0);
    }
  });

  it("follows a download the server is running, and a server stopped mid-download leaves no lock", async () => {
    hub.addRepo({ id: "acme/slow-GGUF", dir: repo("acme/slow-GGUF", { "slow.Q8_0.gguf": 3 * 1024 * 1024 }) });
    // 1 s between chunks while a pull is to find the download running; none once it does.
    hub.setChunkDelay(1000);
    const serve = await startPerchServe(["--base-path", base, "--no-starter-model"], {
      HF_ENDPOINT: hub.url,
      PERCH_LOG_LEVEL: "warn",
    });
    const serverEnv = { ...env, PERCH_HOST: serve.url };
    try {
      const startDownload = async () => {
        const response = await fetch(`${serve.url}/admin/api/downloads`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ source: "hf", repo: "acme/slow-GGUF", quant: "Q8_0" }),
        });
        expect(response.status).toBe(202);
      };
      const part = modelFile("acme", "slow-GGUF", "slow.Q8_0.gguf.part");
      const target = modelFile("acme", "slow-GGUF", "slow.Q8_0.gguf");

      // Was: "'acme/slow-GGUF/slow.Q8_0' is already downloading (run dl-…). (conflict)".
      await startDownload();
      const follower = spawnPerch(["pull", "acme/slow-GGUF"], serverEnv);
      await waitFor(
        () =>
          follower.output().stderr.includes("following that download") ||
          follower.output().stderr.includes("perch pull:"),
        60_000,
        "the pull to follow the download",
      );
      hub.setChunkDelay(0);
      const code = await follower.exited;
      const followed = follower.output();
      expect(followed.stderr).toContain("following that download");
      expect(code, followed.stderr).toBe(0);
      expect(followed.stdout).toContain("Pulled acme/slow-GGUF/slow.Q8_0.");
      expect(fs.existsSync(target)).toBe(true);

      // Once more, with the server stopped (SIGTERM) mid-way.
      fs.rmSync(target);
      hub.setChunkDelay(1000);
      await startDownload();
      await waitFor(() => fs.existsSync(part) && fs.statSync(part).size > 0, 30_000, "the server's bytes");
      await serve.stop();
      hub.setChunkDelay(0);
      // Was: "slow.Q8_0.gguf is being downloaded by another Perch process… (conflict)" for 10 s.
      const pulled = await runPerch(["pull", "acme/slow-GGUF"], env);
      expect(pulled.stderr).not.toContain("another Perch process");
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(pulled.stderr).toMatch(/Resuming: .* already on disk/);
      expect(fs.existsSync(`${part}.lock`)).toBe(false);
    } finally {
      hub.setChunkDelay(0);
      await serve.stop();
    }
  });
});
