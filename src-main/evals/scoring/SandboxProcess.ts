import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createLogger } from "../../base/createLogger.js";
import { killProcessGroup } from "./killProcessGroup.js";
import type { SandboxSetup } from "./SandboxMode.js";
import { sandboxLaunchCommand } from "./sandboxLaunchCommand.js";
import {
  zygoteReadySchema,
  zygoteResponseSchema,
  type ZygoteReady,
  type ZygoteRequest,
  type ZygoteResponse,
} from "./zygoteProtocol.js";
import { errorMessage } from "../../base/describeError.js";
import { readAssetText } from "../../base/readAssetText.js";

/** Looked up when used: the CLI lowers the log level after modules are loaded. */
const log = () => createLogger("evals");

let zygoteSource: string | undefined;

/**
 * The zygote's Python (sandboxZygote.py beside this file), read once per thread. It is handed to
 * python as `-c` text, not as a path: what the zygote sees does not depend on where Perch is
 * installed or what the sandbox lets it read.
 */
function sandboxZygoteSource(): string {
  zygoteSource ??= readAssetText("./sandboxZygote.py", import.meta.url);
  return zygoteSource;
}

/** Extra time the Node side waits past a check's own timeout before it kills the whole zygote. */
const watchdogGraceMs = 5_000;
const startTimeoutMs = 20_000;

/** The zygote's environment, built from scratch: nothing of the server's (keys, tokens) leaks in. */
const zygoteEnvironment = {
  PATH: "/usr/bin:/bin:/usr/local/bin",
  LANG: "C.UTF-8",
  PYTHONDONTWRITEBYTECODE: "1",
};

function removeQuietly(target: string): void {
  try {
    fs.rmSync(target, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    log().warn({ target, error: errorMessage(error) }, "could not remove sandbox scratch");
  }
}

/** Run after every start: a sandbox whose scratch cannot be written must not take checks. */
const selfCheck = {
  code: "open('self-check.txt', 'w').write('perch')\nassert open('self-check.txt').read() == 'perch'\n",
  tests: null,
  test_names: [],
  stdin: null,
  timeout_s: 10,
  cpu_s: 5,
  memory_bytes: null,
  output_limit_bytes: 4096,
  file_size_bytes: 4096,
  scratch_bytes: 1024 ** 2,
  processes: null,
};

interface Pending {
  resolve: (response: ZygoteResponse) => void;
  timer: NodeJS.Timeout;
}

/**
 * One sandbox zygote (see sandboxZygote.py) and its scratch dir, started on first use and
 * restarted after it dies or hangs. Checks run one at a time. The zygote's pid is written next to
 * its scratch dir (`<poolDir>/<name>.pid`) so the pool can kill it even when the worker thread
 * that owns this object is terminated without running any cleanup.
 */
export class SandboxProcess {
  readonly #setup: SandboxSetup;
  readonly #poolDir: string;
  #child: ChildProcessWithoutNullStreams | null = null;
  #scratch: string | null = null;
  #ready: Promise<ZygoteReady> | null = null;
  #pending: Pending | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 1;
  #stderrTail = "";

  constructor(setup: SandboxSetup, poolDir: string) {
    this.#setup = setup;
    this.#poolDir = poolDir;
  }

  /** Runs one check; never rejects for the candidate's sake (failures come back as data). */
  run(request: Omit<ZygoteRequest, "id">): Promise<ZygoteResponse> {
    const next = this.#queue.then(() => this.#runNow(request));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Starts the zygote now (it starts lazily otherwise); resolves with its hello line once a
   * self-check (a file written in its scratch and read back, as a check) has passed.
   */
  start(): Promise<ZygoteReady> {
    if (!this.#ready) {
      this.#ready = this.#spawn().then(async (ready) => {
        await this.#selfCheck();
        return ready;
      });
    }
    return this.#ready;
  }

  /** Like `close`, then waits (up to 2 s) until the zygote has exited and been reaped. */
  async stop(): Promise<void> {
    const child = this.#child;
    const running = child !== null && child.exitCode === null && child.signalCode === null;
    const exited = running
      ? new Promise<void>((resolve) => child.once("exit", () => resolve()))
      : Promise.resolve();
    this.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)))]);
    clearTimeout(timer);
  }

  /** Kills the zygote (and so its whole namespace) and removes its scratch dir. Synchronous. */
  close(): void {
    const child = this.#child;
    this.#child = null;
    this.#ready = null;
    if (child?.pid) killProcessGroup(child.pid);
    if (this.#scratch) {
      removeQuietly(this.#scratch);
      removeQuietly(`${this.#scratch}.pid`);
      this.#scratch = null;
    }
    this.#settle({ sandbox_error: "sandbox closed" });
  }

  async #runNow(request: Omit<ZygoteRequest, "id">): Promise<ZygoteResponse> {
    try {
      await this.start();
    } catch (error) {
      this.close();
      return { sandbox_error: `sandbox failed to start: ${errorMessage(error)}` };
    }
    return this.#send(request);
  }

  async #selfCheck(): Promise<void> {
    const response = await this.#send({ ...selfCheck, env: zygoteEnvironment });
    if (response.status?.kind !== "completed") {
      const why = response.sandbox_error ?? response.status?.message ?? response.stderr?.trim().slice(-300);
      throw new Error(`the sandbox self-check failed: ${why || "no status"}`);
    }
  }

  #send(request: Omit<ZygoteRequest, "id">): Promise<ZygoteResponse> {
    const child = this.#child;
    if (!child) return Promise.resolve({ sandbox_error: "sandbox closed" });
    const id = this.#nextId++;
    return new Promise<ZygoteResponse>((resolve) => {
      const timer = setTimeout(
        () => {
          log().warn({ id }, "sandbox zygote did not answer in time; killing it");
          this.#settle({ sandbox_error: "the sandbox stopped answering and was killed", timed_out: true });
          this.close();
        },
        request.timeout_s * 1000 + watchdogGraceMs,
      );
      this.#pending = { resolve, timer };
      child.stdin.write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  #settle(response: ZygoteResponse): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = null;
    clearTimeout(pending.timer);
    pending.resolve(response);
  }

  #spawn(): Promise<ZygoteReady> {
    const source = sandboxZygoteSource();
    fs.mkdirSync(this.#poolDir, { recursive: true });
    const scratch = fs.realpathSync(fs.mkdtempSync(path.join(this.#poolDir, "p-")));
    // Traversable, not listable: a check running as another uid reaches only its own dir.
    fs.chmodSync(scratch, 0o711);
    this.#scratch = scratch;
    // Root drops to an unprivileged uid for each check; a user namespace needs no uid of its own.
    const dropToUid = process.getuid?.() === 0 && this.#setup.mode !== "linux-user";
    const config = {
      mode: this.#setup.mode,
      scratch,
      uid: dropToUid ? (this.#setup.runAsUid ?? 65534) : null,
    };
    const [command, ...prefix] = sandboxLaunchCommand(this.#setup, scratch);
    const child = spawn(command, [...prefix, "-I", "-c", source, JSON.stringify(config)], {
      cwd: scratch,
      env: zygoteEnvironment,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child = child;
    if (child.pid) fs.writeFileSync(`${scratch}.pid`, String(child.pid));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-4000);
    });
    child.stdin.on("error", () => undefined);
    return new Promise<ZygoteReady>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no hello from the sandbox zygote")), startTimeoutMs);
      const lines = readline.createInterface({ input: child.stdout });
      let ready = false;
      lines.on("line", (line) => {
        const message: unknown = JSON.parse(line);
        if (!ready) {
          ready = true;
          clearTimeout(timer);
          resolve(zygoteReadySchema.parse(message));
          return;
        }
        const parsed = zygoteResponseSchema.safeParse(message);
        this.#settle(parsed.success ? parsed.data : { sandbox_error: "malformed sandbox answer" });
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        const why = `sandbox process exited (${signal ?? code}): ${this.#stderrTail.trim().slice(-500)}`;
        if (!ready) reject(new Error(why));
        if (this.#child === child) {
          // Its pid may be reused from now on: the pool must not find it and kill a stranger.
          removeQuietly(`${scratch}.pid`);
          this.#child = null;
          this.#ready = null;
          if (this.#pending) log().warn(why);
          this.#settle({ sandbox_error: why });
        }
      });
    });
  }
}
