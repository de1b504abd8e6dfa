import http from "node:http";
import net from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxDiscardBytes } from "../../../src-main/server/answerBodyTooLarge.js";
import { maxBodyBytes } from "../../../src-main/server/createServer.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

const tries = 20;
// 10 MB of prompt: far past the 4 MiB limit, and more than the socket buffers hold, so the
// client is still writing when the 413 comes.
const hugeContent = "a".repeat(10 * 1024 * 1024);

describe("a body over the limit", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`answers 413 body_too_large that plain fetch reads, ${tries} times of ${tries}`, async () => {
    const failures: string[] = [];
    for (let attempt = 0; attempt < tries; attempt += 1) {
      try {
        const response = await fetch(`${server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            model: server.mainModelId,
            messages: [{ role: "user", content: hugeContent }],
          }),
        });
        const body = (await response.json()) as { error: { code: string } };
        if (response.status !== 413 || body.error.code !== "body_too_large") {
          failures.push(`${attempt}: ${response.status} ${JSON.stringify(body)}`);
        }
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        failures.push(`${attempt}: ${(error as Error).message} ${cause?.code ?? ""}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it(`answers 413 body_too_large that the official openai SDK reads, ${tries} times of ${tries}`, async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
    const failures: string[] = [];
    for (let attempt = 0; attempt < tries; attempt += 1) {
      const outcome = await client.chat.completions
        .create({ model: server.mainModelId, messages: [{ role: "user", content: hugeContent }] })
        .then(
          () => "answered 200",
          (error: unknown) => error,
        );
      if (
        !(outcome instanceof OpenAI.APIError) ||
        outcome.status !== 413 ||
        outcome.code !== "body_too_large"
      ) {
        failures.push(`${attempt}: ${outcome instanceof Error ? outcome.message : String(outcome)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it(`lets node:http finish sending, then read the 413: no EPIPE or reset, ${tries} times of ${tries}`, async () => {
    const body = JSON.stringify({
      model: server.mainModelId,
      messages: [{ role: "user", content: hugeContent }],
    });
    const url = new URL(server.url);
    const failures: string[] = [];
    for (let attempt = 0; attempt < tries; attempt += 1) {
      // Many clients (Python's requests, promise wrappers over node:http) fail the whole call
      // on a write error even when the answer arrived: the write must succeed too.
      const outcome = await new Promise<string>((resolve) => {
        let status = 0;
        let text = "";
        let writeError = "";
        const outgoing = http.request(
          {
            host: url.hostname,
            port: url.port,
            method: "POST",
            path: "/v1/chat/completions",
            headers: { "content-type": "application/json", connection: attempt % 2 ? "keep-alive" : "close" },
            agent: false,
          },
          (response) => {
            status = response.statusCode ?? 0;
            response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          },
        );
        outgoing.on("error", (error: NodeJS.ErrnoException) => (writeError = error.code ?? error.message));
        outgoing.on("close", () => {
          // The error, when there is one, can come after the answer: judge once the socket closed.
          setTimeout(() => {
            const fine = status === 413 && text.includes("body_too_large") && writeError === "";
            resolve(
              fine ? "" : `${attempt}: status ${status}, write error '${writeError}', ${text.slice(0, 80)}`,
            );
          }, 50);
        });
        outgoing.end(body);
      });
      if (outcome) failures.push(outcome);
    }
    expect(failures).toEqual([]);
  });

  it("stops reading a body that never ends: the connection closes after a bounded drain", async () => {
    const url = new URL(server.url);
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    await new Promise((resolve) => socket.once("connect", resolve));
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    socket.on("error", () => undefined);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(
      "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
        "Transfer-Encoding: chunked\r\n\r\n",
    );
    // Chunks until the server hangs up; far more than the limit and the drain bound together.
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sent = 0;
    let writing = true;
    void closed.then(() => (writing = false));
    while (writing && sent < 20 * maxBodyBytes) {
      socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      const ok = socket.write("\r\n");
      sent += chunk.length;
      if (!ok) await new Promise((resolve) => socket.once("drain", resolve).once("close", resolve));
    }
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    expect(writing, `server still reading after ${sent} bytes`).toBe(false);
    // It kept reading well past the limit (the drain), then stopped at its bound.
    expect(sent).toBeGreaterThan(maxDiscardBytes / 2);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain("body_too_large");
  });
});
