import type { FastifyReply } from "fastify";
import { PerchError } from "../base/PerchError.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The generation requests being answered (`createServer`), drained before the server closes. */
    inFlightGenerations?: InFlightGenerations;
  }
}

interface Entry {
  stop: (error: PerchError) => void;
  done: Promise<void>;
}

export interface DrainOptions {
  /** How long the answers may run on to their natural end. */
  graceMs: number;
  /** How long a cut answer has to write its ending before the connections are closed. */
  cutMs: number;
}

/** The error an answer cut by a shutdown ends with: 503, so clients retry once a server is back. */
export function shuttingDownError(): PerchError {
  return new PerchError(
    "server_shutting_down",
    "The server is shutting down; the answer was cut short here. Retry once it is back.",
  );
}

/**
 * The generation requests the server is answering (streamed or not), so a shutdown ends each in
 * its own protocol instead of cutting the connection: the client gets its error event (OpenAI and
 * Anthropic SSE, Ollama's NDJSON `error` line) or a 503, never a stream that just stops and reads
 * as a whole answer. A request that arrives during the drain is stopped at once.
 */
export class InFlightGenerations {
  private readonly entries = new Set<Entry>();
  private draining = false;

  /**
   * Follows `reply` until its answer is handed to the system or its connection closes; `stop`
   * cuts it short with the given error (it aborts the generation with the error as reason).
   */
  track(reply: FastifyReply, stop: (error: PerchError) => void): void {
    const raw = reply.raw;
    if (raw.writableFinished || raw.destroyed) return;
    let over = () => {};
    const entry: Entry = { stop, done: new Promise<void>((resolve) => (over = resolve)) };
    const end = () => {
      this.entries.delete(entry);
      over();
    };
    raw.once("finish", end);
    raw.once("close", end);
    this.entries.add(entry);
    if (this.draining) stop(shuttingDownError());
  }

  /** Lets the answers run for `graceMs`, then cuts those left and waits up to `cutMs` for their endings. */
  async drain(options: DrainOptions): Promise<void> {
    this.draining = true;
    if (this.entries.size === 0) return;
    await this.settled(options.graceMs);
    for (const entry of [...this.entries]) entry.stop(shuttingDownError());
    await this.settled(options.cutMs);
  }

  private async settled(withinMs: number): Promise<void> {
    if (this.entries.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.entries].map((entry) => entry.done)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, withinMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
