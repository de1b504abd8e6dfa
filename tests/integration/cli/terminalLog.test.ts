import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repositoryRoot, waitFor } from "../../helpers/runPerch.js";

const exec = promisify(execFile);
// A private tmux server, so a developer's own sessions are never touched.
const socket = `perch-log-test-${process.pid}`;
const tmux = (...args: string[]) => exec("tmux", ["-L", socket, ...args]);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-terminal-log-"));
const script = path.join(dir, "logOnce.ts");
fs.writeFileSync(
  script,
  `import { createLogger } from ${JSON.stringify(path.join(repositoryRoot, "src-main/base/createLogger.ts"))};\n` +
    `createLogger("probe").warn({ model: "tiny" }, "hello from the logger");\n`,
);
const tsx = path.join(repositoryRoot, "node_modules/.bin/tsx");

afterAll(async () => {
  await tmux("kill-server").catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("log lines on a terminal", () => {
  it("are pretty for a person at a terminal and JSON lines on stderr when piped", async () => {
    const output = path.join(dir, "pane.txt");
    // A real terminal: tmux gives the process a pty, as a user running `perch serve` has.
    await tmux(
      "new-session",
      "-d",
      "-s",
      "log",
      "-x",
      "160",
      "-y",
      "20",
      `env PERCH_LOG_LEVEL=info ${tsx} ${script}; sleep 60`,
    );
    await waitFor(
      async () => {
        const { stdout } = await tmux("capture-pane", "-p", "-J", "-t", "log");
        fs.writeFileSync(output, stdout);
        return stdout.includes("hello from the logger");
      },
      60_000,
      "the log line",
    );
    const pane = fs.readFileSync(output, "utf8");
    expect(pane).toMatch(/WARN.*hello from the logger/);
    expect(pane).not.toContain('"level"');

    // Piped: JSON lines on stderr; stdout stays the command's own output (`--json` listings).
    const { stdout, stderr } = await exec(tsx, [script], {
      env: { ...process.env, PERCH_LOG_LEVEL: "info" },
    });
    expect(stdout).toBe("");
    const line = JSON.parse(stderr.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 40, module: "probe", model: "tiny", msg: "hello from the logger" });
  });

  it("are coloured on a terminal unless NO_COLOR is set (FORCE_COLOR wins over it)", async () => {
    const colours = async (session: string, env: string) => {
      await tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "160",
        "-y",
        "20",
        `env ${env} ${tsx} ${script}; sleep 60`,
      );
      let pane = "";
      await waitFor(
        async () => {
          // -e keeps the escape sequences the process wrote.
          pane = (await tmux("capture-pane", "-p", "-e", "-J", "-t", session)).stdout;
          return pane.includes("hello from the logger");
        },
        60_000,
        `the log line (${env})`,
      );
      return pane.includes("\x1b[");
    };
    expect(await colours("plain", "PERCH_LOG_LEVEL=info NO_COLOR=1")).toBe(false);
    expect(await colours("coloured", "PERCH_LOG_LEVEL=info")).toBe(true);
    expect(await colours("forced", "PERCH_LOG_LEVEL=info NO_COLOR=1 FORCE_COLOR=1")).toBe(true);
  });
});
