import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * A streamed answer written past fastify (SSE, NDJSON) whose headers go out with its first write,
 * so an error raised before it can still be a plain JSON error with its own status. Headers set
 * on the reply before (CORS, `x-perch-ignored-fields`) go out with whichever comes first. `signal`
 * aborts when the client goes away.
 */
export abstract class HijackedStream {
  protected started = false;
  protected ended = false;
  private readonly controller = new AbortController();

  constructor(
    /** The request this stream answers (its usage is noted for the request log). */
    readonly request: FastifyRequest,
    protected readonly reply: FastifyReply,
  ) {
    reply.hijack();
    const onClose = () => {
      if (!this.ended) this.controller.abort(new Error("client disconnected"));
    };
    reply.raw.on("close", onClose);
    request.raw.on("aborted", onClose);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get closed(): boolean {
    return this.ended || this.controller.signal.aborted;
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
