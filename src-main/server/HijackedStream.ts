import type { FastifyReply, FastifyRequest } from "fastify";
import type { PerchError } from "../base/PerchError.js";

/**
 * A streamed answer written past fastify (SSE, NDJSON) whose headers go out with its first write,
 * so an error raised before it can still be a plain JSON error with its own status. Headers set
 * on the reply before (CORS, `x-perch-ignored-fields`) go out with whichever comes first. `signal`
 * aborts when the client goes away, and, for a generation's stream, when the server shuts down:
 * then with the error the stream is to end with (`server_shutting_down`), the client still there.
 */
export abstract class HijackedStream {
  protected started = false;
  protected ended = false;
  private clientGone = false;
  private readonly controller = new AbortController();

  constructor(
    /** The request this stream answers (its usage is noted for the request log). */
    readonly request: FastifyRequest,
    protected readonly reply: FastifyReply,
    options: {
      /**
       * A generation's answer: a shutdown lets it run briefly, then stops the generation and the
       * stream ends with its protocol's error (`InFlightGenerations`). Defaults to `false` (a
       * follower of a run is just closed with its connection).
       */
      generation?: boolean;
    } = {},
  ) {
    reply.hijack();
    const onClose = () => {
      if (this.ended) return;
      this.clientGone = true;
      this.controller.abort(new Error("client disconnected"));
    };
    reply.raw.on("close", onClose);
    request.raw.on("aborted", onClose);
    if (options.generation) {
      request.server.inFlightGenerations?.track(reply, (error: PerchError) => {
        if (!this.closed) this.controller.abort(error);
      });
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Ended, or its client went away: nothing more can be written. */
  get closed(): boolean {
    return this.ended || this.clientGone;
  }

  /** Sends the stream's headers: the ones already set on the reply, then `own`. */
  protected writeHead(status: number, own: Record<string, string>): void {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.reply.getHeaders())) {
      if (typeof value === "string" || typeof value === "number") headers[name] = String(value);
    }
    this.reply.raw.writeHead(status, { ...headers, ...own });
  }

  /** Answers a whole JSON error instead of a stream (nothing was sent yet). */
  protected answerJson(status: number, body: unknown, own: Record<string, string> = {}): void {
    this.ended = true;
    this.writeHead(status, { "content-type": "application/json; charset=utf-8", ...own });
    this.reply.raw.end(JSON.stringify(body));
  }

  /** Sends the headers of a successful stream, once. */
  protected abstract start(): void;

  end(): void {
    if (this.ended) return;
    this.start();
    this.ended = true;
    this.reply.raw.end();
  }
}
