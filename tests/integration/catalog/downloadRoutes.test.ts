import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  downloadEventSchema,
  modelIdPath,
  type DownloadEvent,
} from "../../../src-shared/contracts/catalog.js";
import { startFakeHub, type FakeHub } from "../../helpers/fakeHub.js";
import { tinyGgufBytes } from "../../helpers/writeTinyGguf.js";
import { buildAdminApp } from "../../unit/catalog/buildAdminApp.js";

let base: string;
let hub: FakeHub;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-download-routes-"));
  hub = await startFakeHub();
});
afterEach(async () => {
  await hub.close();
  await fs.rm(base, { recursive: true, force: true });
});

async function readSse(url: string): Promise<DownloadEvent[]> {
  const response = await fetch(url);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const text = await response.text(); // the server ends the stream when the run stops
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => downloadEventSchema.parse(JSON.parse(block.slice("data: ".length))));
}

describe("download routes over HTTP", () => {
  it("downloads from the hub named by HF_ENDPOINT, streams progress with replay, then checks updates", async () => {
    const remote = path.join(base, "remote");
    await fs.mkdir(remote, { recursive: true });
    await fs.writeFile(
      path.join(remote, "m-Q4_K_M.gguf"),
      tinyGgufBytes({ fileType: 15, padding: 512 * 1024 }),
    );
    await fs.writeFile(path.join(remote, "m-Q8_0.gguf"), tinyGgufBytes({ padding: 10 }));
    const head = hub.addRepo({ id: "acme/m-GGUF", dir: remote });
    const { app } = await buildAdminApp(base, { env: { HF_ENDPOINT: hub.url } });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });

    const files = await app.inject({
      method: "GET",
      url: "/admin/api/downloads/repo-files?source=hf&repo=acme%2Fm-GGUF",
    });
    expect(files.json()).toMatchObject({ revision: head, ggufs: [{ quant: "Q4_K_M" }, { quant: "Q8_0" }] });

    const bad = await app.inject({
      method: "POST",
      url: "/admin/api/downloads",
      payload: { source: "hf", repo: "acme/m-GGUF", file: "m-Q8_0.gguf", quant: "Q8_0" },
    });
    expect(bad.statusCode).toBe(400);
    const traversal = await app.inject({
      method: "POST",
      url: "/admin/api/downloads",
      payload: { source: "hf", repo: "acme/m-GGUF", file: "../../etc/passwd" },
    });
    expect(traversal.statusCode).toBe(400);

    hub.setChunkDelay(5);
    const started = await app.inject({
      method: "POST",
      url: "/admin/api/downloads",
      payload: { source: "hf", repo: "acme/m-GGUF", quant: "Q4_K_M" },
    });
    expect(started.statusCode).toBe(202);
    const run = started.json();
    const live = await readSse(`${address}/admin/api/downloads/${run.run_id}/stream`);
    expect(live[0].type).toBe("started");
    expect(live.at(-1)).toMatchObject({ type: "completed", model_id: "acme/m-GGUF/m-Q4_K_M" });
    expect(live.some((event) => event.type === "progress")).toBe(true);
    // A late subscriber gets the same story replayed, and the stream ends.
    const replay = await readSse(`${address}/admin/api/downloads/${run.run_id}/stream`);
    expect(replay.map((event) => event.type)).toEqual(
      live.map((event) => event.type).filter((t, i, all) => t !== "progress" || all[i + 1] !== "progress"),
    );

    expect(
      (await app.inject({ method: "GET", url: `/admin/api/downloads/${run.run_id}` })).json().status,
    ).toBe("completed");
    expect(
      (await app.inject({ method: "POST", url: `/admin/api/downloads/${run.run_id}/cancel` })).statusCode,
    ).toBe(409);
    expect(
      (await app.inject({ method: "POST", url: `/admin/api/downloads/${run.run_id}/resume` })).statusCode,
    ).toBe(409);
    expect((await app.inject({ method: "GET", url: "/admin/api/downloads/dl-none/stream" })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: "GET", url: "/admin/api/downloads" })).json().runs).toHaveLength(1);

    const modelUrl = `/admin/api/models/${modelIdPath("acme/m-GGUF/m-Q4_K_M")}`;
    expect((await app.inject({ method: "GET", url: modelUrl })).json()).toMatchObject({
      source: "hf",
      repo: "acme/m-GGUF",
      revision: head,
      update_status: "up_to_date",
      gguf: { quantization: "Q4_K_M" },
    });
    const changed = path.join(base, "remote2");
    await fs.mkdir(changed, { recursive: true });
    await fs.writeFile(path.join(changed, "m-Q4_K_M.gguf"), tinyGgufBytes({ padding: 512 * 1024 + 1 }));
    hub.pushRevision("acme/m-GGUF", changed);
    const check = await app.inject({ method: "POST", url: `${modelUrl}/check-update` });
    expect(check.json()).toMatchObject({
      update_status: "update_available",
      remote_revision: hub.head("acme/m-GGUF"),
    });
    await app.close();
  });
});
