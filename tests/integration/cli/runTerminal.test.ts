import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neverEndingFormat } from "../../helpers/inferenceClient.js";
import { perchBin, repositoryRoot, waitFor } from "../../helpers/runPerch.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

const exec = promisify(execFile);
// A private tmux server, so a developer's own sessions are never touched.
const socket = `perch-test-${process.pid}`;
const tmux = (...args: string[]) => exec("tmux", ["-L", socket, ...args]);
const pane = async (session: string) =>
  (await tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-200")).stdout;
const alive = (session: string) =>
  tmux("has-session", "-t", session).then(
    () => true,
    () => false,
  );

let server: TestServer;
let schemaFile: string;

/** Starts `perch run <model> …` in a detached tmux pane: a real terminal, as a user has. */
async function startRun(session: string, extra: string[] = []): Promise<void> {
  const env = `PERCH_HOST=${server.url} PERCH_HOME=${server.basePath} PERCH_LOG_LEVEL=warn`;
  const command = `cd ${repositoryRoot} && env ${env} ${process.execPath} ${perchBin} run ${server.mainModelId} ${extra.join(" ")}`;
  await tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "50", command);
  await waitFor(async () => (await pane(session)).includes(">>> "), 60_000, "the chat prompt");
}

beforeAll(async () => {
  server = await startTestServer();
  // A JSON schema the tiny model cannot satisfy early: its reply goes on until stopped.
  schemaFile = path.join(server.basePath, "numbers.schema.json");
  fs.writeFileSync(schemaFile, JSON.stringify(neverEndingFormat.response_format.json_schema.schema));
});

afterAll(async () => {
  await tmux("kill-server").catch(() => undefined);
  await server?.close();
});

const activeSequences = async () => {
  const stats = (await (await fetch(`${server.url}/admin/api/stats`)).json()) as {
    totals: { activeSequences: number };
  };
  return stats.totals.activeSequences;
};

describe("perch run in a terminal", () => {
  it("streams a reply, Ctrl-C stops it and the prompt comes back, /bye exits", async () => {
    const session = "chat";
    await startRun(session, ["--format", schemaFile]);
    await tmux("send-keys", "-t", session, "give me numbers", "Enter");
    // Streamed text appears and keeps growing while the reply runs.
    await waitFor(async () => /give me numbers\n.*\{/s.test(await pane(session)), 60_000, "streamed text");
    const early = (await pane(session)).length;
    await waitFor(async () => (await pane(session)).length > early + 20, 60_000, "more streamed text");
    expect(await activeSequences()).toBe(1);

    await tmux("send-keys", "-t", session, "C-c");
    await waitFor(
      async () => /\(stopped\)\n>>> $/m.test((await pane(session)).trimEnd() + " "),
      30_000,
      "(stopped) and a new prompt",
    );
    await waitFor(async () => (await activeSequences()) === 0, 30_000, "the generation to end on the server");
    const afterStop = await pane(session);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await pane(session)).toBe(afterStop);
    expect(await alive(session)).toBe(true);

    await tmux("send-keys", "-t", session, "/bye", "Enter");
    await waitFor(async () => !(await alive(session)), 30_000, "perch run to exit");
  });

  it("Ctrl-C twice at the prompt exits", async () => {
    const session = "interrupt";
    await startRun(session);
    await tmux("send-keys", "-t", session, "C-c");
    await waitFor(
      async () => (await pane(session)).includes("(Ctrl-C again or /bye to exit)"),
      30_000,
      "the hint",
    );
    expect(await alive(session)).toBe(true);
    await tmux("send-keys", "-t", session, "C-c");
    await waitFor(async () => !(await alive(session)), 30_000, "perch run to exit");
  });

  it("answers a prompt given on the command line and exits", async () => {
    const { stdout } = await exec(process.execPath, [perchBin, "run", server.mainModelId, "say", "hi"], {
      cwd: repositoryRoot,
      env: { ...process.env, PERCH_HOST: server.url, PERCH_HOME: server.basePath },
    });
    expect(stdout.trim().length).toBeGreaterThan(0);
  });

  it("Ctrl-C during a one-shot answer stops it: exit 130 and (stopped) on stderr", async () => {
    const child = spawn(
      process.execPath,
      [perchBin, "run", server.mainModelId, "--format", schemaFile, "numbers"],
      {
        cwd: repositoryRoot,
        env: { ...process.env, PERCH_HOST: server.url, PERCH_HOME: server.basePath, PERCH_LOG_LEVEL: "warn" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await waitFor(() => stdout.length > 20, 60_000, "streamed text");
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("(stopped)");
    expect(stdout).toMatch(/\{/);
  });
});
