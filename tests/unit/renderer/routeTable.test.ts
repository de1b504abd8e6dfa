import { describe, expect, it } from "vitest";
import { apiRoutes } from "../../../src-shared/contracts/api.js";
import {
  buildPath,
  buildQuery,
  validateRouteInput,
  validateStreamInput,
} from "../../../src-shared/contracts/routeInput.js";
import { createSseParser } from "../../../src-shared/contracts/createSseParser.js";

describe("route table", () => {
  it("encodes a model id with slashes as one path segment", () => {
    expect(buildPath("/admin/api/models/:model_id/settings", { model_id: "org/repo/model-Q4_K_M" })).toBe(
      "/admin/api/models/org%2Frepo%2Fmodel-Q4_K_M/settings",
    );
  });

  it("builds query strings without undefined values", () => {
    expect(buildQuery({ model_id: "a b", limit: undefined })).toBe("?model_id=a%20b");
    expect(buildQuery({})).toBe("");
  });

  it("validates a request and builds method, url and body", () => {
    const result = validateRouteInput("putModelSettings", {
      params: { model_id: "org/m" },
      body: { tags: ["MoE"], sampling: { temperature: 0.2 } },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        method: "PUT",
        url: "/admin/api/models/org%2Fm/settings",
        body: { tags: ["MoE"], sampling: { temperature: 0.2 } },
      },
    });
  });

  it("rejects unknown routes, stray parts and bad values with the field path", () => {
    expect(validateRouteInput("dropDatabase", {})).toMatchObject({ ok: false, failure: { where: "route" } });
    expect(validateRouteInput("__proto__", {})).toMatchObject({ ok: false });
    expect(validateRouteInput("listModels", { body: { x: 1 } })).toMatchObject({
      ok: false,
      failure: { where: "body" },
    });
    expect(validateRouteInput("listModels", "nope")).toMatchObject({
      ok: false,
      failure: { where: "route" },
    });
    const bad = validateRouteInput("putModelSettings", {
      params: { model_id: "org/m" },
      body: { sampling: { temperature: 9 } },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain("sampling.temperature");
    expect(validateRouteInput("deleteModel", { params: { model_id: "../etc/passwd" } })).toMatchObject({
      ok: false,
      failure: { where: "params" },
    });
    expect(validateRouteInput("deleteAccuracyResult", { params: { result_id: "../x" } }).ok).toBe(false);
  });

  it("validates stream parameters", () => {
    expect(validateStreamInput("accuracyRun", { run_id: "run-abc" })).toEqual({
      ok: true,
      path: "/admin/api/bench/accuracy/run-abc/stream",
    });
    expect(validateStreamInput("accuracyRun", { run_id: "../../x" }).ok).toBe(false);
    expect(validateStreamInput("shell", {}).ok).toBe(false);
  });

  it("names every route the issues list", () => {
    const paths = Object.values(apiRoutes).map((route) => `${route.method} ${route.path}`);
    for (const expected of [
      "GET /admin/api/models",
      "PUT /admin/api/models/:model_id/settings",
      "DELETE /admin/api/models/:model_id",
      "POST /admin/api/models/:model_id/check-update",
      "POST /admin/api/models/check-updates",
      "POST /admin/api/reload",
      "POST /admin/api/rescan",
      "POST /admin/api/bench/accuracy/queue",
      "GET /admin/api/bench/accuracy/queue",
      "GET /admin/api/bench/accuracy/results",
      "POST /admin/api/bench/start",
      "GET /admin/api/bench/results",
      "GET /admin/api/stats",
      "GET /admin/api/health",
    ]) {
      expect(paths).toContain(expected);
    }
  });
});

describe("createSseParser", () => {
  it("parses messages split across chunks, with event names and multi-line data", () => {
    const parse = createSseParser();
    expect(parse('data: {"a":')).toEqual([]);
    expect(parse("1}\n\nevent: ping\ndata: x\ndata: y\n\n: comment\n\ndata: [DONE]\r\n\r\n")).toEqual([
      { event: null, data: '{"a":1}' },
      { event: "ping", data: "x\ny" },
      { event: null, data: "[DONE]" },
    ]);
  });
});
