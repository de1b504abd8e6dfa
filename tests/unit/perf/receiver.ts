import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedUpload {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  raw: string;
}

/**
 * A local stand-in for the community benchmark site: records every request and answers with
 * the next status from `statuses` (the last one repeats).
 */
export async function startReceiver(statuses: number[] = [201]) {
  const received: ReceivedUpload[] = [];
  const queue = [...statuses];
  const server = http.createServer((request, response) => {
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (raw += chunk));
    request.on("end", () => {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body,
        raw,
      });
      const status = queue.length > 1 ? (queue.shift() as number) : queue[0];
      response.writeHead(status, { "content-type": "application/json" });
      response.end(
        JSON.stringify(status < 300 ? { id: `remote-${received.length}` } : { error: `status ${status}` }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1/results`,
    received,
    setStatuses(next: number[]) {
      queue.splice(0, queue.length, ...next);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
