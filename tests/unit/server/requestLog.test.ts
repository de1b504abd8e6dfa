import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { captureLog } from "../../helpers/captureLog.js";
import { registerRequestLog } from "../../../src-main/server/registerRequestLog.js";
import { noteUsage } from "../../../src-main/server/requestUsage.js";
import { listDroppedFields, noteIgnoredFields } from "../../../src-main/server/ignoredFields.js";

describe("the request log", () => {
  it("writes one line per request: method, route, model, status, duration and the tokens used", async () => {
    const { log, lines } = captureLog();
    const app = Fastify();
    registerRequestLog(app, log);
    app.post("/v1/chat/completions", async (request) => {
      noteUsage(request, { promptTokens: 12, completionTokens: 34 });
      return { ok: true };
    });
    app.get("/admin/api/models/:model_id", async (_request, reply) =>
      reply.status(404).send({ error: "nope" }),
    );
    app.get("/admin/api/stats", async () => ({ active: 0 }));
    app.get("/api/tags", async () => ({ models: [] }));

    const chat = await app.inject({
      method: "POST",
      url: "/v1/chat/completions?x=1",
      payload: { model: "tiny", messages: [{ role: "user", content: "a secret prompt" }] },
    });
    await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      payload: { model: "m".repeat(10_000), messages: [] },
    });
    expect(chat.statusCode).toBe(200);
    await app.inject({ method: "GET", url: "/admin/api/models/some-model" });
    await app.inject({ method: "GET", url: "/admin/api/stats" });
    await app.inject({ method: "GET", url: "/api/tags" });
    await app.close();

    const requests = lines.filter((line) => line.msg === "request");
    // The dashboard's polling (a successful admin read) stays out of the info-level log; an
    // Ollama app's read is a caller like any other.
    expect(requests.map((line) => line.route)).toContain("/api/tags");
    requests.pop();
    expect(requests).toHaveLength(3);
    // A huge model name is cut, not repeated in full.
    expect(requests[1].model).toBe("m".repeat(200));
    requests.splice(1, 1);
    expect(requests[0]).toMatchObject({
      method: "POST",
      route: "/v1/chat/completions",
      model: "tiny",
      status: 200,
      prompt_tokens: 12,
      completion_tokens: 34,
    });
    expect(typeof requests[0].duration_ms).toBe("number");
    expect(requests[1]).toMatchObject({
      method: "GET",
      route: "/admin/api/models/:model_id",
      model: "some-model",
      status: 404,
    });
    expect(requests[1]).not.toHaveProperty("prompt_tokens");
    // The log says who called and what it cost, never what was asked.
    expect(JSON.stringify(lines)).not.toContain("secret prompt");
  });

  it("names the model of Ollama's pull, delete and show, which may send the older `name`", async () => {
    const { log, lines } = captureLog();
    const app = Fastify();
    registerRequestLog(app, log);
    app.post("/api/pull", async () => ({ status: "success" }));
    app.delete("/api/delete", async () => ({}));
    app.post("/admin/api/things", async () => ({}));
    await app.inject({ method: "POST", url: "/api/pull", payload: { name: "hf.co/owner/repo:Q4_K_M" } });
    await app.inject({ method: "DELETE", url: "/api/delete", payload: { model: "tiny:latest" } });
    await app.inject({ method: "DELETE", url: "/api/delete", payload: { name: "old:latest" } });
    // Elsewhere `name` is not a model (a benchmark, a profile...).
    await app.inject({ method: "POST", url: "/admin/api/things", payload: { name: "a profile" } });
    await app.close();
    const models = lines.filter((line) => line.msg === "request").map((line) => line.model);
    expect(models).toEqual(["hf.co/owner/repo:Q4_K_M", "tiny:latest", "old:latest", undefined]);
  });

  it("names the fields a route ignored in the log line and the x-perch-ignored-fields header", async () => {
    const { log, lines } = captureLog();
    const app = Fastify();
    registerRequestLog(app, log);
    app.post("/v1/chat/completions", async (request, reply) => {
      const parsed = { model: "tiny", messages: [{ role: "user" }, { role: "user" }] };
      noteIgnoredFields(request, reply, listDroppedFields(request.body, parsed));
      return { ok: true };
    });
    const response = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      payload: {
        model: "tiny",
        "fö ö": 1,
        messages: [
          { role: "user", a: 1 },
          { role: "user", a: 2, b: 3 },
        ],
      },
    });
    await app.close();
    expect(response.headers["x-perch-ignored-fields"]).toBe("f%C3%B6 %C3%B6, messages[].a, messages[].b");
    const line = lines.find((entry) => entry.msg === "request");
    expect(line?.ignored_fields).toEqual(["fö ö", "messages[].a", "messages[].b"]);
  });
});

describe("the request log of a client that goes away", () => {
  it("writes the line of a stream stopped midway and of a request given up while waiting", async () => {
    const http = await import("node:http");
    const { log, lines } = captureLog();
    const app = Fastify();
    registerRequestLog(app, log);
    app.post("/v1/chat/completions", async (request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { "content-type": "text/event-stream" });
      reply.raw.write("data: {}\n\n");
      await new Promise<void>((resolve) => request.raw.socket.once("close", () => resolve()));
    });
    app.post("/api/chat", async (request) => {
      await new Promise<void>((resolve) => request.raw.socket.once("close", () => resolve()));
      return {};
    });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const send = (path: string, waitForData: boolean) =>
      new Promise<void>((resolve) => {
        const request = http.request(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
        });
        request.on("error", () => resolve());
        request.on("response", (response) => response.once("data", () => request.destroy()));
        request.end(JSON.stringify({ model: "tiny" }));
        if (!waitForData) setTimeout(() => request.destroy(), 100);
        request.on("close", () => resolve());
      });
    await send("/v1/chat/completions", true);
    await send("/api/chat", false);
    const requests = () => lines.filter((line) => line.msg === "request");
    for (let wait = 0; wait < 50 && requests().length < 2; wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await app.close();
    expect(requests()).toEqual([
      expect.objectContaining({
        route: "/v1/chat/completions",
        model: "tiny",
        status: 200,
        client_closed: true,
      }),
      expect.objectContaining({ route: "/api/chat", model: "tiny", status: 499, client_closed: true }),
    ]);
  });
});
