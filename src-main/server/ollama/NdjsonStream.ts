import { HijackedStream } from "../HijackedStream.js";
import { logServerError } from "../logServerError.js";
import { retryHeaders } from "../toErrorAnswer.js";
import { errorCodeHeader, toOllamaError } from "./toOllamaError.js";

/**
 * A newline-delimited JSON response (Ollama's streaming) whose headers go out with the first
 * line: an error before it is a normal JSON error with its status (404, 429...), one after it a
 * final `{"error": "..."}` line. `signal` aborts when the client goes away.
 */
export class NdjsonStream extends HijackedStream {
  protected start(): void {
    if (this.started) return;
    this.started = true;
    this.writeHead(200, {
      "content-type": "application/x-ndjson",
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
    logServerError(this.request, this.reply, error, status);
    if (!this.started)
      return this.answerJson(status, body, { [errorCodeHeader]: code, ...retryHeaders(status) });
    this.send(body);
    this.end();
  }
}
