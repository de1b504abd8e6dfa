import fs from "node:fs";
import path from "node:path";
import { Ollama } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModels } from "../../helpers/testModels.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let ollama: Ollama;

beforeAll(async () => {
  server = await startTestServer();
  ollama = new Ollama({ host: server.url });
});
afterAll(async () => {
  await server?.close();
});

/** Copies the test model into the models folder under `id`, as a user copying a GGUF in. */
async function copyIn(id: string): Promise<string> {
  const file = path.join(server.basePath, "models", `${id}.gguf`);
  fs.copyFileSync((await ensureTestModels()).main, file);
  return file;
}

const listed = async () => (await ollama.list()).models.map((model) => model.name);

describe("Ollama routes and the models folder", () => {
  it("lists a GGUF copied into the folder at once, and stops listing it once removed", async () => {
    expect(await listed()).toContain(`${server.mainModelId}:latest`);
    const file = await copyIn("copied-for-tags");
    expect(await listed()).toContain("copied-for-tags:latest");
    fs.rmSync(file);
    expect(await listed()).not.toContain("copied-for-tags:latest");
  });

  it("shows and deletes a GGUF just copied in (no rescan first)", async () => {
    // The catalog was scanned by the first listing: these files are new to it.
    expect(await listed()).toContain(`${server.mainModelId}:latest`);
    await copyIn("copied-for-show");
    const shown = await ollama.show({ model: "copied-for-show:latest" });
    expect(shown.details).toMatchObject({ format: "gguf", family: "llama" });
    const file = await copyIn("copied-for-delete");
    const deleted = await fetch(`${server.url}/api/delete`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "copied-for-delete" }),
    });
    expect(deleted.status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    // Still a 404 for what is in no folder.
    const missing = await fetch(`${server.url}/api/show`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "never-copied" }),
    });
    expect(missing.status).toBe(404);
  });
});
