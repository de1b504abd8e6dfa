import type { EventEmitter } from "node:events";

/** Why the log file is not being written, for the health warnings. */
export interface LogFileProblem {
  /** The log folder. */
  dir: string;
  /** The last write error (`ENOSPC: no space left on device, write`). */
  error: string;
  /** When writing first failed (ISO date). */
  since: string;
  /** Log lines dropped since then. */
  dropped: number;
}

interface FileStream extends EventEmitter {
  write(line: string): unknown;
}

export interface LogFileGuardOptions {
  /** How long writes are dropped after a failed one before the file is tried again. Defaults to `30_000`. */
  retryAfterMs?: number;
  /** Told once when writing starts failing (not for every retry). */
  onFailing?: (problem: LogFileProblem) => void;
  /** Told when a write succeeds again after failures. */
  onRecovered?: (problem: LogFileProblem) => void;
}

/**
 * Stands between the logger and the rotating log file so that a file that cannot be written (a
 * full disk, a folder removed) never takes the process down: the file stream's `error` events are
 * caught (unheard, Node throws them and the process exits), lines are dropped while it fails, and
 * after `retryAfterMs` the next line tries again (the file stream keeps the line it failed on and
 * writes it first). `problem()` says what is wrong while it lasts.
 */
export class LogFileGuard {
  private failing: LogFileProblem | undefined;
  private pausedUntil = 0;
  private readonly retryAfterMs: number;

  constructor(
    private readonly stream: FileStream,
    private readonly dir: string,
    private readonly options: LogFileGuardOptions = {},
  ) {
    this.retryAfterMs = options.retryAfterMs ?? 30_000;
    stream.on("error", (error: unknown) => this.failed(error));
    // sonic-boom says `write` with the bytes it wrote: the file takes lines again.
    stream.on("write", () => this.recovered());
  }

  write(line: string): void {
    if (Date.now() < this.pausedUntil) {
      if (this.failing) this.failing.dropped += 1;
      return;
    }
    try {
      this.stream.write(line);
    } catch (error) {
      // A destroyed stream throws instead of emitting.
      this.failed(error);
    }
  }

  /** What keeps the log file from being written, or `undefined` while it is written. */
  problem(): LogFileProblem | undefined {
    return this.failing && { ...this.failing };
  }

  private failed(error: unknown): void {
    this.pausedUntil = Date.now() + this.retryAfterMs;
    const message = error instanceof Error ? error.message : String(error);
    if (this.failing) {
      this.failing.error = message;
      return;
    }
    this.failing = { dir: this.dir, error: message, since: new Date().toISOString(), dropped: 0 };
    this.options.onFailing?.({ ...this.failing });
  }

  private recovered(): void {
    if (!this.failing) return;
    const problem = this.failing;
    this.failing = undefined;
    this.pausedUntil = 0;
    this.options.onRecovered?.(problem);
  }
}
