import type { FastifyReply, FastifyRequest } from "fastify";
import { ignoredFieldsHeader } from "./ignoredFields.js";
import { toApiError } from "./toApiError.js";

/**
 * A server-sent-events response whose headers go out lazily: an error raised before the first
 * event still becomes a normal JSON error with its HTTP status (404, 429, ...), and one raised
 * after it becomes a final error event. `signal` aborts when the client goes away.
 */
export class SseStream {
  private started = false;
  private ended = false;
  private readonly controller = new AbortController();

  constructor(
    /** The request this stream answers (its usage is noted for the request log). */
    readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
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

  private start(): void {
    if (this.started) return;
    this.started = true;
    const headers: Record<string, string> = {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    };
    // Headers set before the stream started (CORS, `x-perch-ignored-fields`) go out with it.
    for (const name of ["access-control-allow-origin", "access-control-expose-headers", ignoredFieldsHeader]) {
      const value = this.reply.getHeader(name);
      if (typeof value === "string") headers[name] = value;
    }
    this.reply.raw.writeHead(200, headers);
  }

  /** Writes `data: <json>` (OpenAI style) or, with `event`, an `event:` line first (Anthropic style). */
  send(data: unknown, event?: string): void {
    if (this.closed) return;
    this.start();
    const payload = typeof data === "string" ? data : JSON.stringify(data);
    this.reply.raw.write(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
  }

  /** Writes an SSE comment line (`: text`), which clients ignore: keeps proxies and idle timeouts from closing a quiet stream. */
  comment(text: string): void {
    if (this.closed) return;
    this.start();
    this.reply.raw.write(`: ${text}\n\n`);
  }

  /** Ends the stream with an error: a JSON error response if nothing was sent yet. */
  fail(
    error: unknown,
    options: { event?: string; shape?: (body: ReturnType<typeof toApiError>["body"]) => unknown } = {},
  ): void {
    const shape = options.shape ?? ((body) => body);
    if (this.closed) return;
    const { status, body } = toApiError(error);
    if (!this.started) {
      this.ended = true;
      this.reply.raw.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      this.reply.raw.end(JSON.stringify(shape(body)));
      return;
    }
    this.send(shape(body), options.event);
    this.end();
  }

  end(): void {
    if (this.ended) return;
    this.start();
    this.ended = true;
    this.reply.raw.end();
  }
}
