import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A real `perch serve` child process on a fixed port and base path; restartable. */
export class PerchServerProcess {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];

  constructor(
    readonly options: { port: number; basePath: string; env?: Record<string, string>; extraArgs?: string[] },
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  async start(timeoutMs = 120_000): Promise<void> {
    const args = [
      "bin/perch.js",
      "serve",
      "--port",
      String(this.options.port),
      "--base-path",
      this.options.basePath,
      "--log-level",
      "warn",
      // One llama.cpp thread (vitest runs other test files beside this server); extraArgs may override.
      "--threads",
      "1",
      ...(this.options.extraArgs ?? []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, ...this.options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const collect = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 400) this.output.splice(0, this.output.length - 400);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`perch serve did not start:\n${this.log()}`)),
        timeoutMs,
      );
      const onData = () => {
        if (this.output.join("").includes("Perch is serving at")) {
          clearTimeout(timer);
          child.stdout?.off("data", onData);
          resolve();
        }
      };
      child.stdout?.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`perch serve exited with ${code}:\n${this.log()}`));
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
      child.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      child.kill("SIGTERM");
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    this.output.length = 0;
    await this.start();
  }

  log(): string {
    return this.output.join("").slice(-6000);
  }
}
