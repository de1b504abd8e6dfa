import net from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, requestTimeoutMs } from "../../../src-main/server/createServer.js";

const limitMs = 2_000;
// Generous: the cut must come near the limit, not 30 s later; a loaded machine adds some delay.
const boundMs = limitMs + 3_000;

/**
 * Opens a connection, sends `head` at once and then one byte of `trickle` every 100 ms (a slow
 * client); resolves with when the server closed it (ms after connecting) and what it answered.
 */
function slowClient(
  url: string,
  head: string,
  trickle: string,
): Promise<{ closedAfterMs: number; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let answer = "";
    let sent = 0;
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`still open after ${boundMs * 3} ms`));
    }, boundMs * 3);
    socket.once("connect", () => {
      started = performance.now();
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write(trickle[sent++ % trickle.length]!);
      }, 100);
    });
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("error", () => undefined);
    socket.once("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: performance.now() - started, answer });
    });
  });
}

describe("request timeout", () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    app = await createServer({
      allowRemoteAdmin: false,
      requestTimeoutMs: limitMs,
      register: (instance) => {
        instance.post("/v1/echo", async (request) => ({ body: request.body }));
        instance.post("/api/chat", async (request) => ({ body: request.body }));
      },
    });
    url = await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("cuts a client that sends its headers slowly at the limit, with a 408", async () => {
    const { closedAfterMs, answer } = await slowClient(
      url,
      "POST /v1/echo HTTP/1.1\r\n",
      "X-Slow: aaaaaaaa\r\n",
    );
    expect(closedAfterMs).toBeGreaterThanOrEqual(limitMs - 100);
    expect(closedAfterMs).toBeLessThan(boundMs);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"invalid_request"');
  });

  it("cuts a client that sends its body slowly at the limit", async () => {
    const head =
      "POST /v1/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";
    const { closedAfterMs, answer } = await slowClient(url, head, " ");
    expect(closedAfterMs).toBeGreaterThanOrEqual(limitMs - 100);
    expect(closedAfterMs).toBeLessThan(boundMs);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("cuts a slow body under /api with a 408 in Ollama's shape and Perch's code in a header", async () => {
    const head =
      "POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";
    const { answer } = await slowClient(url, head, " ");
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.toLowerCase()).toContain("x-perch-error-code: invalid_request");
    expect(answer.slice(answer.indexOf("\r\n\r\n") + 4)).toBe(
      JSON.stringify({ error: "The request took too long to arrive." }),
    );
  });

  it("serves with the documented 60 s limit, checked every second", async () => {
    const documented = await createServer({ allowRemoteAdmin: false, register: () => undefined });
    try {
      expect(requestTimeoutMs).toBe(60_000);
      expect(documented.server.requestTimeout).toBe(60_000);
      expect(documented.server.headersTimeout).toBe(60_000);
      const interval = (documented.server as unknown as { connectionsCheckingInterval: number })
        .connectionsCheckingInterval;
      expect(interval).toBeLessThanOrEqual(1_000);
    } finally {
      await documented.close();
    }
  });
});
