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
