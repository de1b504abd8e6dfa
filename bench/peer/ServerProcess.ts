import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

/** A server under test, running in its own process. */
export class ServerProcess {
  private readonly output: string[] = [];
  private exited: string | undefined;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 200) this.output.shift();
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    // A bench that dies must not leave a server holding the CPU the next run measures on.
    const killChild = () => child.kill("SIGKILL");
    process.once("exit", killChild);
    child.on("exit", (code, signal) => {
      this.exited = `exited with ${code ?? signal}`;
      process.off("exit", killChild);
    });
  }

  static start(
    name: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv = process.env,
  ): ServerProcess {
    return new ServerProcess(name, spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] }));
  }

  /** The process id (for `waitUntilQuiet`). */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Everything the process printed lately (for errors). */
  tail(): string {
    return this.output.join("").split("\n").slice(-30).join("\n");
  }

  /** Resolves once `ready()` does; fails if the process exits or `limitMs` passes first. */
  async waitUntil(ready: () => Promise<boolean>, limitMs: number): Promise<void> {
    const started = Date.now();
    for (;;) {
      if (this.exited) throw new Error(`${this.name} ${this.exited}:\n${this.tail()}`);
      if (await ready().catch(() => false)) return;
      if (Date.now() - started > limitMs)
        throw new Error(`${this.name} did not become ready:\n${this.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  printed(): string {
    return this.output.join("");
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** A port that was free a moment ago (llama-server takes no port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
