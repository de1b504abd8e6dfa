import fs from "node:fs";
import path from "node:path";
import { Ollama } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import { ensureTestModels } from "../../helpers/testModels.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";
import { tinyGgufBytes } from "../../helpers/writeTinyGguf.js";

let server: TestServer;
let hub: FakeHub;
let ollama: Ollama;
const q8 = "hf.co/acme/tiny-GGUF:Q8_0";
const q4 = "hf.co/acme/tiny-GGUF:Q4_K_M";

beforeAll(async () => {
  server = await startTestServer();
  hub = await startFakeHub();
  const remote = path.join(server.basePath, "remote");
  fs.mkdirSync(remote, { recursive: true });
  fs.copyFileSync((await ensureTestModels()).main, path.join(remote, "tiny-Q8_0.gguf"));
  fs.writeFileSync(
    path.join(remote, "tiny-Q4_K_M.gguf"),
    tinyGgufBytes({ fileType: 15, padding: 256 * 1024 }),
  );
  hub.addRepo({ id: "acme/tiny-GGUF", dir: remote });
  const settings = await fetch(`${server.url}/admin/api/settings`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ hf_endpoint: hub.url }),
  });
  expect(settings.status).toBe(200);
  ollama = new Ollama({ host: server.url });
});
afterAll(async () => {
  await server?.close();
  await hub?.close();
});

describe("ollama pull and delete through Perch's download manager", () => {
  it("pulls hf.co/owner/repo:QUANT with NDJSON progress, then lists, shows and chats with it by that name", async () => {
    hub.setChunkDelay(2);
    const stream = await ollama.pull({ model: q8, stream: true });
    const lines: { status: string; digest?: string; total?: number; completed?: number }[] = [];
    for await (const line of stream) lines.push(line);
    hub.setChunkDelay(0);
    expect(lines[0].status).toBe("pulling manifest");
    expect(lines.at(-1)!.status).toBe("success");
    const progress = lines.filter((line) => line.digest);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(progress[0].status).toBe(`pulling ${progress[0].digest!.slice(7, 19)}`);
    const size = fs.statSync((await ensureTestModels()).main).size;
    expect(progress.at(-1)).toMatchObject({ total: size, completed: size });
    expect(lines.map((line) => line.status)).toContain("verifying sha256 digest");

    const listed = (await ollama.list()).models.find((model) => model.name === q8);
    expect(listed).toMatchObject({ size, details: { quantization_level: "Q8_0", family: "llama" } });
    // The digest is the file's sha256 the hub reported.
    expect(`sha256:${listed!.digest}`).toBe(progress[0].digest);
    expect((await ollama.show({ model: q8 })).details.format).toBe("gguf");
    const reply = await ollama.chat({
      model: q8,
      messages: [{ role: "user", content: "hi" }],
      options: { num_predict: 3 },
    });
    expect(reply.done).toBe(true);
    expect(reply.model).toBe(q8);
  });

  it("a pull that finds the model's file already the hub's leaves the loaded model loaded", async () => {
    const id = "acme/tiny-GGUF/tiny-Q8_0";
    expect(server.core.engine.isLoaded(id)).toBe(true);
    expect(await ollama.pull({ model: q8 })).toEqual({ status: "success" });
    // Was: unloaded (retired as if its file had been replaced), its pin cleared.
    expect(server.core.engine.isLoaded(id)).toBe(true);
  });

  it("a new revision pulled over a loaded model unloads it, so the next request runs the new file", async () => {
    const loadedId = () => server.core.engine.list().find((model) => model.id.includes("tiny-Q8_0"))?.id;
    const id = loadedId();
    expect(id).toBeDefined();
    // The same file name with other weights (the draft model's), as a new upstream revision.
    const next = path.join(server.basePath, "remote-v2");
    fs.mkdirSync(next, { recursive: true });
    fs.copyFileSync((await ensureTestModels()).draft, path.join(next, "tiny-Q8_0.gguf"));
    fs.copyFileSync(
      path.join(server.basePath, "remote", "tiny-Q4_K_M.gguf"),
      path.join(next, "tiny-Q4_K_M.gguf"),
    );
    hub.pushRevision("acme/tiny-GGUF", next);
    expect(await ollama.pull({ model: q8 })).toEqual({ status: "success" });
    // Idle: unloaded at once (it would otherwise answer, and be benchmarked, on the old weights).
    await expect.poll(() => loadedId()).toBeUndefined();
    const reply = await ollama.chat({
      model: q8,
      messages: [{ role: "user", content: "hi" }],
      options: { num_predict: 2 },
    });
    expect(reply.done).toBe(true);
    expect(loadedId()).toBe(id);
    const size = fs.statSync((await ensureTestModels()).draft).size;
    expect((await ollama.list()).models.find((model) => model.name === q8)?.size).toBe(size);
  });

  it("a second pull of a model that is downloading follows it, and leaving does not cancel it", async () => {
    hub.addRepo({ id: "acme/slow-GGUF", dir: path.join(server.basePath, "remote") });
    const name = "hf.co/acme/slow-GGUF:Q8_0";
    hub.setChunkDelay(20);
    const collect = async (lines: AsyncIterable<{ status: string }>) => {
      const seen: string[] = [];
      for await (const line of lines) seen.push(line.status);
      return seen;
    };
    try {
      const first = await new Ollama({ host: server.url }).pull({ model: name, stream: true });
      const iterator = first[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ status: "pulling manifest" });
      // A second client pulls the same model, reads a line, and goes away.
      const leaving = new Ollama({ host: server.url });
      const second = await leaving.pull({ model: name, stream: true });
      expect((await second[Symbol.asyncIterator]().next()).value).toMatchObject({
        status: "pulling manifest",
      });
      leaving.abort();
      // A third follows it to the end, as the first does.
      const third = collect(await new Ollama({ host: server.url }).pull({ model: name, stream: true }));
      const rest: string[] = [];
      for (let step = await iterator.next(); !step.done; step = await iterator.next())
        rest.push(step.value.status);
      expect(rest.at(-1)).toBe("success");
      expect((await third).at(-1)).toBe("success");
    } finally {
      hub.setChunkDelay(0);
    }
  });

  it("pulls without streaming, and refuses names it cannot pull with Ollama-shaped errors", async () => {
    expect(await ollama.pull({ model: q4 })).toEqual({ status: "success" });
    expect((await ollama.list()).models.map((model) => model.name)).toEqual(expect.arrayContaining([q4, q8]));
    const registry = await ollama.pull({ model: "llama3.2:3b" }).catch((caught: unknown) => caught);
    expect(registry).toMatchObject({ status_code: 400 });
    expect((registry as Error).message).toContain("hf.co/owner/repo");
    const noQuant = await ollama
      .pull({ model: "hf.co/acme/tiny-GGUF:Q2_K" })
      .catch((caught: unknown) => caught);
    expect(noQuant).toMatchObject({ status_code: 404 });
    expect((noQuant as Error).message).toContain("Q4_K_M");
  });

  it("fails a pull of a file that is not a readable GGUF, and does not list it in /api/tags", async () => {
    const remote = path.join(server.basePath, "remote-notgguf");
    fs.mkdirSync(remote, { recursive: true });
    fs.writeFileSync(path.join(remote, "bad.Q8_0.gguf"), Buffer.alloc(64 * 1024, 7));
    hub.addRepo({ id: "acme/notgguf-GGUF", dir: remote });
    // Was: success, then listed, then model_load_failed on the first request.
    const failed = await ollama
      .pull({ model: "hf.co/acme/notgguf-GGUF:Q8_0" })
      .catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toContain("not a readable GGUF");
    const names = (await ollama.list()).models.map((model) => model.name);
    expect(names.some((name) => name.includes("notgguf"))).toBe(false);
  });

  it("deletes by Ollama name (unloading an idle model first), and answers 404 for a name it does not have", async () => {
    await ollama.chat({
      model: q8,
      messages: [{ role: "user", content: "hi" }],
      options: { num_predict: 2 },
    });
    expect(server.core.engine.isLoaded("acme/tiny-GGUF/tiny-Q8_0")).toBe(true);
    expect(await ollama.delete({ model: q8 })).toEqual({ status: "success" });
    expect(server.core.engine.isLoaded("acme/tiny-GGUF/tiny-Q8_0")).toBe(false);
    await ollama.delete({ model: q4 });
    const names = (await ollama.list()).models.map((model) => model.name);
    expect(names).not.toContain(q8);
    expect(names).not.toContain(q4);
    expect(fs.existsSync(path.join(server.basePath, "models", "acme", "tiny-GGUF"))).toBe(false);
    const again = await ollama.delete({ model: q8 }).catch((caught: unknown) => caught);
    expect(again).toMatchObject({ status_code: 404 });
  });
});

describe("Ollama routes and Perch's access rules", () => {
  let keyed: TestServer;
  beforeAll(async () => {
    keyed = await startTestServer({ apiKey: "secret-key" });
  });
  afterAll(async () => {
    await keyed?.close();
  });

  it("require the API key like /v1 when one is set, answering 401 in Ollama's shape", async () => {
    const anonymous = new Ollama({ host: keyed.url });
    const refused = await anonymous.list().catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status_code: 401 });
    const raw = await fetch(`${keyed.url}/api/tags`);
    expect(raw.headers.get("x-perch-error-code")).toBe("unauthorized");
    expect(Object.keys((await raw.json()) as object)).toEqual(["error"]);
    const client = new Ollama({ host: keyed.url, headers: { authorization: "Bearer secret-key" } });
    expect((await client.list()).models.length).toBeGreaterThan(0);
  });

  it("answer other sites' pages on inference routes (CORS) but refuse them pull and delete", async () => {
    const headers = {
      authorization: "Bearer secret-key",
      "content-type": "application/json",
      origin: "https://evil.example",
    };
    const tags = await fetch(`${keyed.url}/api/tags`, { headers });
    expect(tags.status).toBe(200);
    expect(tags.headers.get("access-control-allow-origin")).toBe("*");
    for (const [method, route] of [
      ["DELETE", "/api/delete"],
      ["POST", "/api/pull"],
    ]) {
      const response = await fetch(`${keyed.url}${route}`, {
        method,
        headers,
        body: JSON.stringify({ model: `${keyed.mainModelId}:latest` }),
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
    expect(
      (await fetch(`${keyed.url}/api/tags`, { headers: { authorization: "Bearer secret-key" } })).status,
    ).toBe(200);
    expect(fs.existsSync(path.join(keyed.basePath, "models", `${keyed.mainModelId}.gguf`))).toBe(true);
  });
});
