import os from "node:os";
import { Piscina } from "piscina";
import { asarUnpackedPath } from "../../base/asarUnpackedPath.js";
import { PerchError } from "../../base/PerchError.js";
import type { HealthWarningInput } from "../../storage/HealthRegistry.js";
import { resolveSandboxSetup, type SandboxSetupOptions } from "./resolveSandboxSetup.js";
import type { SandboxSetup } from "./SandboxMode.js";
import type { CodeSandbox, SandboxRunRequest, SandboxRunResult } from "./SandboxRun.js";
import { createSandboxPoolDir, destroySandboxPoolDir } from "./sandboxPoolDir.js";
import type { ScoringWorkerData } from "./scoringWorker.js";

/**
 * Piscina loads the worker with Node's own loader. A compiled build (this file is `.js`) has
 * `scoringWorker.js`; a source checkout run through tsx or vitest gets `scoringWorker.mjs`, which
 * registers tsx in the worker thread first. In the packaged app the worker starts from
 * `app.asar.unpacked`, as real files.
 */
function scoringWorkerUrl(): string {
  const compiled = import.meta.url.endsWith(".js");
  return asarUnpackedPath(
    new URL(compiled ? "./scoringWorker.js" : "./scoringWorker.mjs", import.meta.url).href,
  );
}

export interface SandboxPoolOptions extends SandboxSetupOptions {
  /** Worker threads, each with its own sandbox process. Defaults to the CPU count, from 1 to 4. */
  threads?: number;
}

/**
 * The scoring worker pool: piscina worker threads, each owning one sandbox zygote, so checks run
 * in parallel and never on the thread that drives generation. Abort only drops the caller's
 * wait: a running check ends by its own timeout (terminating the thread would orphan its zygote).
 */
export class SandboxPool implements CodeSandbox {
  readonly setup: SandboxSetup;
  readonly threads: number;
  readonly #piscina: Piscina;
  readonly #poolDir: string;
  readonly #onExit = () => destroySandboxPoolDir(this.#poolDir);
  #closed = false;
  #scoringErrors = 0;
  #lastScoringError: string | null = null;

  private constructor(setup: SandboxSetup, threads: number) {
    this.setup = setup;
    this.threads = threads;
    this.#poolDir = createSandboxPoolDir();
    const workerData: ScoringWorkerData = { setup, poolDir: this.#poolDir };
    this.#piscina = new Piscina({
      filename: scoringWorkerUrl(),
      minThreads: threads,
      maxThreads: threads,
      // Idle threads stay: each holds a warm zygote, and a terminated thread cannot close its own.
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: 1,
      workerData,
    });
    process.once("exit", this.#onExit);
  }

  /** Finds the strongest working sandbox (probed once per process) and starts the pool. */
  static async create(options: SandboxPoolOptions = {}): Promise<SandboxPool> {
    const setup = await resolveSandboxSetup(options);
    const threads = options.threads ?? Math.max(1, Math.min(4, os.availableParallelism()));
    return new SandboxPool(setup, threads);
  }

  /** What `/admin/api/health` shows: checks the sandbox failed to score (after a restart and retry). */
  healthWarnings(): HealthWarningInput[] {
    if (this.#scoringErrors === 0) return [];
    const checks = this.#scoringErrors === 1 ? "1 code check" : `${this.#scoringErrors} code checks`;
    const message = `The scoring sandbox failed: ${checks} could not be scored (last: ${this.#lastScoringError}).`;
    return [{ code: "scoring_error", message }];
  }

  run(request: SandboxRunRequest, signal?: AbortSignal): Promise<SandboxRunResult> {
    if (this.#closed) return Promise.reject(new PerchError("cancelled", "the scoring pool is closed"));
    const check = (this.#piscina.run(request) as Promise<SandboxRunResult>).then((result) => {
      if (result.outcome === "scoring_error") {
        this.#scoringErrors += 1;
        this.#lastScoringError = result.error;
      }
      return result;
    });
    if (!signal) return check;
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      check.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const arrived = new Int32Array(new SharedArrayBuffer(4));
    const barrier = { arrived, workers: this.threads };
    const stops = Array.from({ length: this.threads }, () =>
      this.#piscina.run(barrier, { name: "stopScoringWorker" }).catch(() => undefined),
    );
    await Promise.all(stops);
    await this.#piscina.destroy();
    process.removeListener("exit", this.#onExit);
    destroySandboxPoolDir(this.#poolDir);
  }
}
