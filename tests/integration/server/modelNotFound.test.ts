import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "../../../src-shared/contracts/errors.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

describe("model_not_found", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers the same error shape, param 'model', on every route that looks a model up", async () => {
    const messages = [{ role: "user", content: "hi" }];
    const requests: { method: string; path: string; body?: unknown }[] = [];
    // An unknown id, and one that cannot name a model file at all (refused before any lookup).
    for (const model of ["no-such-model", "../outside", "a/./b"]) {
      requests.push(
        { method: "POST", path: "/v1/chat/completions", body: { model, messages, max_tokens: 1 } },
        { method: "POST", path: "/v1/completions", body: { model, prompt: "hi", max_tokens: 1 } },
        { method: "POST", path: "/v1/messages", body: { model, messages, max_tokens: 1 } },
        { method: "POST", path: "/admin/api/bench/start", body: { model_id: model } },
        {
          method: "POST",
          path: "/admin/api/bench/accuracy/queue",
          body: { model_id: model, benchmarks: ["gsm8k"] },
        },
        { method: "GET", path: `/admin/api/bench/upload/preview?model_id=${encodeURIComponent(model)}` },
      );
    }
    for (const path of [
      "/admin/api/models/no-such-model",
      "/admin/api/models/no-such-model/profiles",
      "/admin/api/models/no-such-model/check-update",
    ]) {
      requests.push({ method: path.endsWith("check-update") ? "POST" : "GET", path });
    }
    requests.push({
      method: "PUT",
      path: "/admin/api/models/no-such-model/settings",
      body: { max_queue: 2 },
    });

    const seen: string[] = [];
    for (const request of requests) {
      const response = await fetch(`${server.url}${request.path}`, {
        method: request.method,
        ...(request.body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(request.body) }),
      });
      const label = `${request.method} ${request.path} ${JSON.stringify(request.body ?? "")}`;
      const parsed = apiErrorSchema.safeParse(await response.json());
      expect(parsed.success, label).toBe(true);
      const error = parsed.data!.error;
      // Ids that cannot be model names may be refused as invalid instead; an unknown model never.
      if (error.code !== "model_not_found") {
        expect(label).not.toContain("no-such-model");
        continue;
      }
      seen.push(label);
      expect(response.status, label).toBe(404);
      expect({ type: error.type, param: error.param }, label).toEqual({
        type: "not_found_error",
        param: "model",
      });
    }
    // Every /v1 route and the admin ones above answered it for the unknown id.
    expect(seen.filter((label) => label.includes("no-such-model")).length).toBe(10);
  });
});

describe("a model file whose GGUF header cannot be read", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    // Valid magic and version, then garbage: the tensor count read from it is ~2.8e16.
    const fs = await import("node:fs");
    const path = await import("node:path");
    fs.writeFileSync(
      path.join(server.basePath, "models", "truncated.gguf"),
      Buffer.concat([Buffer.from("GGUF"), Buffer.from([3, 0, 0, 0]), Buffer.from("garbage")]),
    );
    await fetch(`${server.url}/admin/api/rescan`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("fails a request and a benchmark at once with model_load_failed, and the server goes on serving", async () => {
    const chat = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "truncated",
        messages: [{ role: "user", content: "hi" }],
        max_tokens: 1,
      }),
    });
    const body = apiErrorSchema.parse(await chat.json());
    expect(body.error.code).toBe("model_load_failed");
    expect(body.error.message).toContain("not a readable GGUF");
    expect(server.core.engine.isLoaded("truncated")).toBe(false);
    const healthy = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: server.mainModelId,
        messages: [{ role: "user", content: "hi" }],
        max_tokens: 1,
      }),
    });
    expect(healthy.status).toBe(200);
  });
});
