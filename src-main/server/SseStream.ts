import { HijackedStream } from "./HijackedStream.js";
import { logServerError } from "./logServerError.js";
import { toApiError } from "./toApiError.js";
import { retryHeaders } from "./toErrorAnswer.js";

/**
 * A server-sent-events response whose headers go out lazily: an error raised before the first
 * event still becomes a normal JSON error with its HTTP status (404, 429, ...), and one raised
 * after it becomes a final error event. `signal` aborts when the client goes away.
 */
export class SseStream extends HijackedStream {
  protected start(): void {
    if (this.started) return;
    this.started = true;
    this.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
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
    logServerError(this.request, this.reply, error, status);
    if (!this.started) return this.answerJson(status, shape(body), retryHeaders(status));
    this.send(shape(body), options.event);
    this.end();
  }
}
