import net from "node:net";
import { describe, expect, it } from "vitest";
import { captureLog } from "../../helpers/captureLog.js";
import { createServer, maxBodyBytes } from "../../../src-main/server/createServer.js";

/** Sends headers announcing an oversized body, then part of it, and reads the answer's status line. */
function postOversized(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("error", reject);
    socket.on("data", (chunk) => {
      answer += String(chunk);
      if (answer.includes("\r\n\r\n")) {
        socket.destroy();
        resolve(answer.split("\r\n")[0]);
      }
    });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${maxBodyBytes + 1024}\r\n\r\n`,
    );
    socket.write(`{"model":"tiny","messages":[],"pad":"${"a".repeat(64 * 1024)}`);
  });
}

describe("a 413 answered while the body is still arriving", () => {
  it("still writes its request-log line", async () => {
    const { log, lines } = captureLog();
    const app = await createServer({
      allowRemoteAdmin: false,
      requestLog: log,
      register: (server) => {
        server.post("/v1/chat/completions", async () => ({ ok: true }));
      },
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const address = app.server.address() as net.AddressInfo;
      expect(await postOversized(address.port)).toBe("HTTP/1.1 413 Payload Too Large");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const requests = lines.filter((line) => line.msg === "request");
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ method: "POST", route: "/v1/chat/completions", status: 413 });
    } finally {
      await app.close();
    }
  });
});
