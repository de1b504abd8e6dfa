import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createServer } from "../../../src-main/server/createServer.js";

const empty = fs.mkdtempSync(path.join(os.tmpdir(), "perch-no-renderer-"));
afterAll(() => fs.rmSync(empty, { recursive: true, force: true }));

describe("GET / without a built dashboard", () => {
  it("answers an HTML page saying how to build it, not a JSON 404", async () => {
    const app = await createServer({ allowRemoteAdmin: false, rendererDir: empty, register: () => {} });
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain("npm run build:renderer");
    // It does not tell a remote client the server's folders.
    expect(response.body).not.toContain(empty);
    // Other unknown paths keep the API's JSON error.
    const missing = await app.inject({ method: "GET", url: "/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: "not_found" } });
    await app.close();
  });

  it("serves the built dashboard when there is one", async () => {
    const built = path.join(empty, "built");
    fs.mkdirSync(built);
    fs.writeFileSync(path.join(built, "index.html"), "<!doctype html><title>dashboard</title>");
    const app = await createServer({ allowRemoteAdmin: false, rendererDir: built, register: () => {} });
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.body).toContain("<title>dashboard</title>");
    await app.close();
  });
});
