import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import os from "node:os";
import readline from "node:readline";
import { z } from "zod";
import { PerchError } from "../../../base/PerchError.js";
import { pythonCandidates } from "../../scoring/pythonCandidates.js";
import { readAssetText } from "../../../base/readAssetText.js";

/** What a program must define to be a candidate answer (see codeAnalyzer.py, `check`). */
export type EntryPoint =
  | { kind: "function"; name: string }
  | { kind: "solution"; name: string }
  | { kind: "stdin" }
  | { kind: "none" };

export interface ProgramCheck {
  compiles: boolean;
  defines: boolean;
}

const regionsReply = z.object({ regions: z.array(z.array(z.string())) });
const sanitizeReply = z.object({ sanitized: z.array(z.string().nullable()) });
const checkReply = z.object({ checks: z.array(z.object({ compiles: z.boolean(), defines: z.boolean() })) });
const errorReply = z.object({ error: z.string() });

let analyzerSource: string | undefined;

/** The analyzer's Python (codeAnalyzer.py beside this file, its requests described there), read once. */
function codeAnalyzerSource(): string {
  analyzerSource ??= readAssetText("./codeAnalyzer.py", import.meta.url);
  return analyzerSource;
}

/** A request that takes longer is a hung analyzer (compiling is milliseconds): it is restarted. */
const requestTimeoutMs = 30_000;

/** The analyzer's environment, built from scratch like the sandbox's: nothing of the server's leaks in. */
const analyzerEnvironment = {
  PATH: "/usr/bin:/bin:/usr/local/bin",
  LANG: "C.UTF-8",
  PYTHONDONTWRITEBYTECODE: "1",
};

interface Pending {
  resolve: (reply: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * One long-lived Python process that compiles (never runs) model-written code: which parts of an
 * unfenced answer are code, what the sanitizer keeps, whether a program defines the entry point.
 * Started on first use, reused for every request (pipelined, answered in order), restarted after
 * it dies or hangs. It does not keep Node alive while idle, and exits on its own when Node's end
 * of its stdin closes. A failure here is Perch's, never the model's: requests reject.
 */
export class CodeAnalyzer {
  readonly #python: string;
  #child: ChildProcessWithoutNullStreams | null = null;
  readonly #pending: Pending[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(python: string) {
    this.#python = python;
  }

  async regions(segments: string[]): Promise<string[][]> {
    if (segments.length === 0) return [];
    return regionsReply.parse(await this.#request({ op: "regions", segments })).regions;
  }

  async sanitize(codes: string[], roots: string[], style: "function" | "stdin"): Promise<(string | null)[]> {
    if (codes.length === 0) return [];
    return sanitizeReply.parse(await this.#request({ op: "sanitize", codes, roots, style })).sanitized;
  }

  async check(programs: string[], entry: EntryPoint): Promise<ProgramCheck[]> {
    if (programs.length === 0) return [];
    return checkReply.parse(await this.#request({ op: "check", programs, entry })).checks;
  }

  /** Stops the process; a later request starts a new one. */
  close(): void {
    this.#fail(new PerchError("cancelled", "the code analyzer was closed"));
  }

  #request(body: object): Promise<unknown> {
    const child = this.#child ?? this.#spawn();
    const reply = new Promise<unknown>((resolve, reject) => this.#pending.push({ resolve, reject }));
    this.#setBusy(true);
    child.stdin.write(`${JSON.stringify(body)}\n`);
    return reply.then((value) => {
      const failed = errorReply.safeParse(value);
      if (failed.success)
        throw new PerchError("internal_error", `code analysis failed: ${failed.data.error}`);
      return value;
    });
  }

  #spawn(): ChildProcessWithoutNullStreams {
    const child = spawn(this.#python, ["-I", "-S", "-c", codeAnalyzerSource()], {
      cwd: os.tmpdir(),
      env: analyzerEnvironment,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child = child;
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => (stderr = (stderr + text).slice(-2000)));
    child.stdin.on("error", () => undefined);
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const next = this.#pending.shift();
      if (this.#pending.length === 0) this.#setBusy(false);
      else this.#restartTimer();
      try {
        next?.resolve(JSON.parse(line));
      } catch {
        next?.reject(new PerchError("internal_error", "code analysis answered malformed JSON"));
      }
    });
    const failWith = (why: string) => {
      if (this.#child !== child) return;
      this.#fail(new PerchError("internal_error", `code analyzer ${why}: ${stderr.trim().slice(-500)}`));
    };
    child.on("error", (error) => failWith(`could not run ${this.#python} (${error.message})`));
    child.on("exit", (code, signal) => failWith(`exited (${signal ?? code})`));
    return child;
  }

  /** Rejects every waiting request and stops the process. */
  #fail(error: Error): void {
    const child = this.#child;
    this.#child = null;
    this.#setBusy(false);
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const pending of this.#pending.splice(0)) pending.reject(error);
  }

  /** Busy: the process keeps Node alive and a watchdog runs; idle: neither. */
  #setBusy(busy: boolean): void {
    const child = this.#child;
    if (child) {
      for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as {
        ref(): void;
        unref(): void;
      }[]) {
        if (busy) handle.ref();
        else handle.unref();
      }
    }
    if (busy) this.#restartTimer();
    else if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
  }

  #restartTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.#fail(new PerchError("internal_error", "code analysis did not answer in time")),
      requestTimeoutMs,
    );
  }
}

let shared: CodeAnalyzer | null = null;

/** The process-wide analyzer, on the first python3 the sandbox would also try. */
export function codeAnalyzer(): CodeAnalyzer {
  if (!shared) {
    const python = pythonCandidates()[0];
    if (!python) throw new PerchError("internal_error", "python3 was not found: code scoring needs it");
    shared = new CodeAnalyzer(python);
  }
  return shared;
}
