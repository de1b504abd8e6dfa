import { describe, expect, it } from "vitest";
import { captureLog } from "../../helpers/captureLog.js";
import { createServer } from "../../../src-main/server/createServer.js";
import { SseStream } from "../../../src-main/server/SseStream.js";
import { NdjsonStream } from "../../../src-main/server/ollama/NdjsonStream.js";
import { PerchError } from "../../../src-main/base/PerchError.js";

describe("a 5xx answer", () => {
  it("logs its error with the stack and the request id, on every face; a 4xx does not", async () => {
    const { log, lines } = captureLog();
    const app = await createServer({
      allowRemoteAdmin: false,
      requestLog: log,
      register: (app) => {
        app.get("/v1/broken", async () => {
          throw new Error("the disk is on fire");
        });
        app.get("/v1/missing", async () => {
          throw new PerchError("model_not_found", "Model 'x' not found.");
        });
        app.get("/v1/stream", async (request, reply) => {
          const stream = new SseStream(request, reply);
          stream.send({ part: 1 });
          stream.fail(new Error("the sampler fell over"));
        });
        app.get("/api/stream", async (request, reply) => {
          const stream = new NdjsonStream(request, reply);
          stream.send({ part: 1 });
          stream.fail(new Error("the ollama stream fell over"));
        });
      },
    });
    const broken = await app.inject({ method: "GET", url: "/v1/broken" });
    expect(broken.statusCode).toBe(500);
    expect(broken.json().error.code).toBe("internal_error");
    expect((await app.inject({ method: "GET", url: "/v1/missing" })).statusCode).toBe(404);
    const streamed = await app.inject({ method: "GET", url: "/v1/stream" });
    const ollama = await app.inject({ method: "GET", url: "/api/stream" });
    await app.close();

    const failures = lines.filter((line) => line.msg === "request failed");
    expect(failures).toHaveLength(3);
    expect(failures[0]).toMatchObject({
      level: 50,
      status: 500,
      method: "GET",
      route: "/v1/broken",
      request_id: broken.headers["x-request-id"],
      err: { message: "the disk is on fire", stack: expect.stringContaining("serverErrorLog.test.ts") },
    });
    expect(failures[1]).toMatchObject({
      route: "/v1/stream",
      request_id: streamed.headers["x-request-id"],
      err: { message: "the sampler fell over" },
    });
    expect(failures[2]).toMatchObject({
      route: "/api/stream",
      request_id: expect.any(String),
      err: { message: "the ollama stream fell over" },
    });
    // The client sees only that it failed; the cause is in the log.
    expect(ollama.body).toContain(`{"error":"Internal server error."}`);
  });
});
