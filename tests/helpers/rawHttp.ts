import http from "node:http";
import net from "node:net";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given (no normalization of `..` or percent-escapes, unlike `fetch`). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: http.Agent;
  signal?: AbortSignal;
}

/**
 * One HTTP request with `node:http`, which lets a test set `Host`, send arbitrary bytes and keep
 * odd paths intact. A server that answers early (413) and closes while the body is still being
 * sent still yields its answer: errors after the response started are ignored.
 */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: request.headers,
        agent: request.agent,
        signal: request.signal,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        response.on("end", finish);
        response.on("close", finish);
      },
    );
    outgoing.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (request.body !== undefined) {
      // Ignore EPIPE/ECONNRESET when the server refuses a body it will not read (413).
      outgoing.write(request.body, () => undefined);
    }
    outgoing.end();
  });
}

/** Writes raw bytes on a fresh connection and returns everything the server sent until it closed. */
export function rawExchange(baseUrl: string, bytes: string | Buffer, limitMs = 10_000): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${limitMs} ms; got: ${Buffer.concat(chunks).toString("utf8")}`));
    }, limitMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
  });
}
