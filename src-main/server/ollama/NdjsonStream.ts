import type { FastifyReply, FastifyRequest } from "fastify";
import { errorCodeHeader, toOllamaError } from "./toOllamaError.js";

/**
 * A newline-delimited JSON response (Ollama's streaming) whose headers go out with the first
 * line: an error before it is a normal JSON error with its status (404, 429...), one after it a
 * final `{"error": "..."}` line. `signal` aborts when the client goes away.
 */
export class NdjsonStream {
  private started = false;
  private ended = false;
  private readonly controller = new AbortController();

  constructor(
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

  private get closed(): boolean {
    return this.ended || this.controller.signal.aborted;
  }

  /** Headers set on the reply before it was hijacked (CORS, ignored fields) go out too. */
  private headers(contentType: string): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.reply.getHeaders())) {
      if (typeof value === "string" || typeof value === "number") headers[name] = String(value);
    }
    headers["content-type"] = contentType;
    return headers;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.reply.raw.writeHead(200, {
      ...this.headers("application/x-ndjson"),
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
  }

  send(line: unknown): void {
    if (this.closed) return;
    this.start();
    this.reply.raw.write(`${JSON.stringify(line)}\n`);
  }

  fail(error: unknown): void {
    if (this.closed) return;
    const { status, code, body } = toOllamaError(error);
    if (!this.started) {
      this.ended = true;
      this.reply.raw.writeHead(status, {
        ...this.headers("application/json; charset=utf-8"),
        [errorCodeHeader]: code,
      });
      this.reply.raw.end(JSON.stringify(body));
      return;
    }
    this.send(body);
    this.end();
  }

  end(): void {
    if (this.ended) return;
    this.start();
    this.ended = true;
    this.reply.raw.end();
  }
}
