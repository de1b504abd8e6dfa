import { describe, expect, it } from "vitest";
import { createServer } from "../../../src-main/server/createServer.js";
import { keyMatches } from "../../../src-main/server/registerSecurity.js";

async function makeApp(options: { apiKey?: string; allowRemoteAdmin?: boolean } = {}) {
  return createServer({
    apiKey: options.apiKey,
    allowRemoteAdmin: options.allowRemoteAdmin ?? false,
    register: (app) => {
      app.get("/v1/models", async () => ({ object: "list", data: [] }));
      app.post("/v1/chat/completions", async () => ({ ok: true }));
      app.get("/admin/api/models", async () => ({ models: [] }));
      app.post("/admin/api/rescan", async () => ({ ok: true }));
      app.post("/v1/completions", async (request) => ({ body: request.body }));
      app.post("/api/generate", async (request) => ({ body: request.body }));
      app.post("/api/pull", async (request) => ({ body: request.body }));
      app.put("/admin/api/settings", async (request) => ({ body: request.body }));
    },
  });
}

const routes = [
  { method: "GET" as const, url: "/v1/models" },
  { method: "POST" as const, url: "/v1/chat/completions", payload: {} },
  { method: "GET" as const, url: "/admin/api/models" },
  { method: "POST" as const, url: "/admin/api/rescan", payload: {} },
];

describe("exposure", () => {
  it("refuses every /v1 and /admin route without the API key, in the error shape", async () => {
    const app = await makeApp({ apiKey: "s3cret" });
    for (const route of routes) {
      for (const headers of [
        {},
        { authorization: "Bearer wrong" },
        { "x-api-key": "s3cre" },
        { authorization: "s3cret" },
      ]) {
        const response = await app.inject({ ...route, headers });
        expect(response.statusCode, `${route.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(response.json().error.code).toBe("unauthorized");
        expect(response.body).not.toContain("at ");
      }
      expect((await app.inject({ ...route, headers: { authorization: "Bearer s3cret" } })).statusCode).toBe(
        200,
      );
      expect((await app.inject({ ...route, headers: { "x-api-key": "s3cret" } })).statusCode).toBe(200);
    }
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  it("compares keys without leaking length or prefix through early exit", () => {
    expect(keyMatches("abc", "abc")).toBe(true);
    expect(keyMatches("abd", "abc")).toBe(false);
    expect(keyMatches("", "abc")).toBe(false);
    expect(keyMatches("abcd", "abc")).toBe(false);
  });

  it("refuses admin routes to non-loopback clients unless allowed; /v1 stays reachable", async () => {
    const app = await makeApp();
    const remote = { remoteAddress: "192.0.2.10" };
    expect((await app.inject({ method: "GET", url: "/admin/api/models", ...remote })).statusCode).toBe(403);
    expect(
      (await app.inject({ method: "GET", url: "/admin/api/models", remoteAddress: "127.0.0.1" })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: "GET", url: "/admin/api/models", remoteAddress: "::1" })).statusCode,
    ).toBe(200);
    expect((await app.inject({ method: "GET", url: "/v1/models", ...remote })).statusCode).toBe(200);
    const open = await makeApp({ allowRemoteAdmin: true });
    expect((await open.inject({ method: "GET", url: "/admin/api/models", ...remote })).statusCode).toBe(200);
  });

  it("lets a page read Perch's own answer headers on inference routes", async () => {
    const app = await makeApp();
    const answer = await app.inject({
      method: "GET",
      url: "/v1/models",
      headers: { origin: "https://app.example" },
    });
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(String(answer.headers["access-control-expose-headers"]).split(/,\s*/)).toEqual([
      "x-perch-ignored-fields",
      "x-perch-error-code",
    ]);
  });

  it("allows a page's preflight the headers its SDK sends (x-stainless-*, Anthropic's browser header)", async () => {
    const app = await makeApp();
    const asked =
      "authorization, content-type, x-stainless-retry-count, x-stainless-lang, anthropic-dangerous-direct-browser-access";
    for (const url of ["/v1/chat/completions", "/api/generate"]) {
      const preflight = await app.inject({
        method: "OPTIONS",
        url,
        headers: {
          origin: "http://localhost:5173",
          "access-control-request-method": "POST",
          "access-control-request-headers": asked,
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers["access-control-allow-origin"]).toBe("*");
      expect(preflight.headers["access-control-allow-headers"]).toBe(asked);
    }
    // A list that is not header names gets the fixed list, not an echo.
    const odd = await app.inject({
      method: "OPTIONS",
      url: "/v1/chat/completions",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-a; y=<b>",
      },
    });
    expect(odd.headers["access-control-allow-headers"]).toBe(
      "authorization, content-type, x-api-key, anthropic-version",
    );
    // A stored response is deleted with DELETE: the browser asks first.
    const deletion = await app.inject({
      method: "OPTIONS",
      url: "/v1/responses/resp_1",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "DELETE" },
    });
    expect(deletion.statusCode).toBe(204);
    expect(String(deletion.headers["access-control-allow-methods"]).split(/,\s*/)).toContain("DELETE");
  });

  it("reads a JSON body sent without a JSON content type on inference routes only (curl -d)", async () => {
    const app = await makeApp();
    const body = '{"model":"m","prompt":"hi"}';
    for (const url of ["/v1/completions", "/api/generate"]) {
      for (const type of ["application/x-www-form-urlencoded", "text/plain", undefined]) {
        const answer = await app.inject({
          method: "POST",
          url,
          headers: type ? { "content-type": type } : {},
          payload: body,
        });
        expect(answer.statusCode, `${url} ${type}`).toBe(200);
        expect(answer.json().body).toEqual({ model: "m", prompt: "hi" });
      }
      const form = await app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "model=m&prompt=hi",
      });
      expect(form.statusCode).toBe(400);
      // Ollama's error shape has no code field: its code travels in a header.
      expect(url === "/api/generate" ? form.headers["x-perch-error-code"] : form.json().error.code).toBe(
        "invalid_json",
      );
    }
    // Admin routes, and Ollama's pull (it changes what is on disk), still take JSON only.
    for (const [method, url] of [
      ["PUT", "/admin/api/settings"],
      ["POST", "/api/pull"],
    ] as const) {
      for (const type of ["text/plain", undefined]) {
        const refused = await app.inject({
          method,
          url,
          headers: type ? { "content-type": type } : {},
          payload: body,
        });
        expect(refused.statusCode, `${url} ${type}`).toBe(415);
      }
    }
  });

  it("sends no CORS headers on admin routes, even to a preflight", async () => {
    const app = await makeApp();
    const origin = { origin: "https://evil.example" };
    const admin = await app.inject({ method: "GET", url: "/admin/api/models", headers: origin });
    expect(admin.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/admin/api/rescan",
      headers: { ...origin, "access-control-request-method": "POST" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
    const v1 = await app.inject({ method: "GET", url: "/v1/models", headers: origin });
    expect(v1.headers["access-control-allow-origin"]).toBe("*");
  });

  it("answers bad JSON, oversized bodies and unknown routes with typed 4xx errors", async () => {
    const app = await makeApp();
    const badJson = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error.code).toBe("invalid_json");
    const huge = await app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ x: "a".repeat(10 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe("body_too_large");
    const missing = await app.inject({ method: "GET", url: "/v1/nothing" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: "not_found", type: "not_found_error" });
  });

  it("keys Ollama's /api like /v1, and keeps pull and delete to loopback clients (also percent-encoded)", async () => {
    const app = await createServer({
      apiKey: "s3cret",
      allowRemoteAdmin: false,
      register: (scope) => {
        scope.get("/api/tags", async () => ({ models: [] }));
        scope.post("/api/pull", async () => ({ status: "success" }));
        scope.delete("/api/delete", async () => ({}));
      },
    });
    const key = { authorization: "Bearer s3cret" };
    expect((await app.inject({ method: "GET", url: "/api/tags" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/api/tags", headers: key })).statusCode).toBe(200);
    const remote = { remoteAddress: "192.0.2.10", headers: key };
    expect((await app.inject({ method: "GET", url: "/api/tags", ...remote })).statusCode).toBe(200);
    for (const [method, url] of [
      ["POST", "/api/pull"],
      ["POST", "/api/%70ull"],
      ["DELETE", "/api/delete"],
      ["DELETE", "/api/delete/"],
    ] as const) {
      const refused = await app.inject({ method, url, payload: {}, ...remote });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      // Under /api every error is Ollama's `{"error": "..."}`, the stable code in a header.
      expect(refused.headers["x-perch-error-code"]).toBe("forbidden");
      expect(refused.json().error).toContain("loopback");
    }
    expect(
      (await app.inject({ method: "POST", url: "/api/pull", payload: {}, headers: key })).statusCode,
    ).toBe(200);
  });
});
