import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { createServer, maxBodyBytes } from "../../../src-main/server/createServer.js";

let app: FastifyInstance;
beforeAll(async () => {
  app = await createServer({
    allowRemoteAdmin: false,
    register: (app) => {
      for (const url of ["/v1/echo", "/api/echo", "/admin/api/echo"])
        app.post(url, async (request) => request.body);
    },
  });
});
afterAll(() => app.close());

const body = { model: "tiny", messages: [{ role: "user", content: "héllo ✓" }] };
const post = (url: string, payload: Buffer, encoding: string) =>
  app.inject({
    method: "POST",
    url,
    payload,
    headers: { "content-type": "application/json", "content-encoding": encoding },
  });

describe("a compressed request body", () => {
  it("is decompressed for gzip, deflate and br on every face", async () => {
    const json = Buffer.from(JSON.stringify(body));
    const encoded: Record<string, Buffer> = {
      gzip: zlib.gzipSync(json),
      deflate: zlib.deflateSync(json),
      br: zlib.brotliCompressSync(json),
    };
    for (const url of ["/v1/echo", "/api/echo", "/admin/api/echo"]) {
      for (const [encoding, payload] of Object.entries(encoded)) {
        const answer = await post(url, payload, encoding);
        expect({ url, encoding, status: answer.statusCode }).toEqual({ url, encoding, status: 200 });
        expect(answer.json()).toEqual(body);
      }
    }
  });

  it("with an unknown coding answers 415 naming it; broken data is 400; the limit counts decompressed bytes", async () => {
    const refused = await post("/v1/echo", Buffer.from("(compressed)"), "zstd");
    expect(refused.statusCode).toBe(415);
    expect(refused.json().error).toMatchObject({ code: "unsupported_media_type" });
    expect(refused.json().error.message).toContain("'zstd'");
    const ollama = await post("/api/echo", Buffer.from("(compressed)"), "compress");
    expect(ollama.statusCode).toBe(415);
    expect(ollama.headers["x-perch-error-code"]).toBe("unsupported_media_type");

    const broken = await post("/v1/echo", Buffer.from("not gzip at all"), "gzip");
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toMatchObject({ code: "invalid_request" });
    expect(broken.json().error.message).toMatch(/not valid gzip/);

    const bomb = zlib.gzipSync(Buffer.from(`{"pad":"${"a".repeat(maxBodyBytes + 1024)}"}`));
    expect(bomb.length).toBeLessThan(maxBodyBytes);
    expect((await post("/v1/echo", bomb, "gzip")).statusCode).toBe(413);
  });
});
