import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const perchBin = path.join(repositoryRoot, "bin/perch.js");

export interface PerchOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `perch <args>` as a user would (a new process through bin/perch.js); never rejects. */
export function runPerch(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 120_000,
): Promise<PerchOutcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [perchBin, ...args],
      {
        cwd: repositoryRoot,
        env: { ...process.env, ...env },
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface PerchServe {
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts a real `perch serve --port 0` in a child process and waits for the URL it prints. */
export async function startPerchServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<PerchServe> {
  // One llama.cpp thread unless `args` say otherwise (the last --threads wins).
  const child = spawn(process.execPath, [perchBin, "serve", "--port", "0", "--threads", "1", ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`perch serve did not start:\n${output}`)), 120_000);
    const check = () => {
      const match = /Perch is serving at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`perch serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Polls `check` until it answers true, or fails after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  what = "condition",
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
