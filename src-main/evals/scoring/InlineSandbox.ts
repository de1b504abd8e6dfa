import { PerchError } from "../../base/PerchError.js";
import { resolveSandboxSetup, type SandboxSetupOptions } from "./resolveSandboxSetup.js";
import type { SandboxSetup } from "./SandboxMode.js";
import { SandboxProcess } from "./SandboxProcess.js";
import type { CodeSandbox, SandboxRunRequest, SandboxRunResult } from "./SandboxRun.js";
import { createSandboxPoolDir, destroySandboxPoolDir } from "./sandboxPoolDir.js";
import { runInSandbox } from "./runInSandbox.js";

/**
 * Sandbox processes driven from the calling thread, no worker threads: for one-shot tools and
 * as the sequential baseline of the pool benchmark. `processes` checks run at once.
 */
export class InlineSandbox implements CodeSandbox {
  readonly setup: SandboxSetup;
  readonly #poolDir = createSandboxPoolDir();
  readonly #idle: SandboxProcess[] = [];
  readonly #waiting: ((process: SandboxProcess) => void)[] = [];
  readonly #all: SandboxProcess[] = [];
  readonly #onExit = () => destroySandboxPoolDir(this.#poolDir);
  #closed = false;

  private constructor(setup: SandboxSetup, processes: number) {
    this.setup = setup;
    for (let index = 0; index < processes; index++) this.#all.push(new SandboxProcess(setup, this.#poolDir));
    this.#idle.push(...this.#all);
    process.once("exit", this.#onExit);
  }

  static async create(options: SandboxSetupOptions & { processes?: number } = {}): Promise<InlineSandbox> {
    return new InlineSandbox(await resolveSandboxSetup(options), Math.max(1, options.processes ?? 1));
  }

  async run(request: SandboxRunRequest, signal?: AbortSignal): Promise<SandboxRunResult> {
    if (this.#closed) throw new PerchError("cancelled", "the sandbox is closed");
    signal?.throwIfAborted();
    const sandbox =
      this.#idle.pop() ?? (await new Promise<SandboxProcess>((resolve) => this.#waiting.push(resolve)));
    try {
      return await runInSandbox(sandbox, request);
    } finally {
      const next = this.#waiting.shift();
      if (next) next(sandbox);
      else this.#idle.push(sandbox);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const sandbox of this.#all) sandbox.close();
    process.removeListener("exit", this.#onExit);
    destroySandboxPoolDir(this.#poolDir);
  }
}
