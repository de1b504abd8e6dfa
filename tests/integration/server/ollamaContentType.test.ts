import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("Ollama's pull and delete without a JSON content type (curl -d)", () => {
  it("are refused (cross-site protection) saying to send Content-Type: application/json, not 'Admin'", async () => {
    for (const [method, path, body] of [
      ["POST", "/api/pull", { model: "hf.co/owner/repo:Q4_K_M" }],
      ["DELETE", "/api/delete", { model: server.mainModelId }],
    ] as const) {
      // What `curl $H/api/pull -d '{...}'` sends.
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(415);
      expect(response.headers.get("x-perch-error-code"), path).toBe("unsupported_media_type");
      const { error } = (await response.json()) as { error: string };
      expect(error, path).toContain("Content-Type: application/json");
      expect(error, path).not.toMatch(/admin/i);
    }
    // Nothing was deleted.
    const listed = (await (await fetch(`${server.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(listed.models.map((model) => model.name)).toContain(`${server.mainModelId}:latest`);
  });
});
