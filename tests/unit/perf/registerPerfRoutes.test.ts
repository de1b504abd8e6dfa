import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perfEventSchema, type PerfEvent } from "../../../src-shared/contracts/performance.js";
import { PerfRunner } from "../../../src-main/perf/PerfRunner.js";
import { CommunityUploader } from "../../../src-main/perf/upload/CommunityUploader.js";
import { createPayloadBuilder } from "../../../src-main/perf/upload/createPayloadBuilder.js";
import { FileHashCache } from "../../../src-main/perf/upload/FileHashCache.js";
import { previewUpload } from "../../../src-main/perf/upload/previewUpload.js";
import { registerPerfRoutes } from "../../../src-main/server/admin/registerPerfRoutes.js";
import { createServer } from "../../../src-main/server/createServer.js";
import { tinyGgufBytes } from "../../helpers/writeTinyGguf.js";
import { fakeSystem, fakeTarget, MemoryResultStore } from "./fakes.js";
import { startReceiver } from "./receiver.js";

let app: FastifyInstance;
let url: string;
let basePath: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let runner: PerfRunner;
let store: MemoryResultStore;
let delayMs = 2;

beforeAll(async () => {
  basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-perf-routes-"));
  const modelFile = path.join(basePath, "fake.gguf");
  fs.writeFileSync(
    modelFile,
    tinyGgufBytes({
      name: "Tiny Preview",
      fileType: 15,
      contextLength: 16384,
      tensors: [{ name: "w", shape: [10, 30] }],
    }),
  );
  receiver = await startReceiver([500, 201]);
  store = new MemoryResultStore();
  const resolveModel = async (id: string) => {
    if (id !== "fake-model") throw Object.assign(new Error("unknown"), {});
    return { id, path: modelFile, settings: {} };
  };
  const buildPayload = createPayloadBuilder({
    basePath,
    resolveModel,
    hashes: new FileHashCache(path.join(basePath, "hashes.json")),
    system: async () => fakeSystem,
  });
  const getEndpoint = async () => receiver.url;
  const uploader = new CommunityUploader({ store, getEndpoint, buildPayload });
  runner = new PerfRunner({
    createTarget: async () => fakeTarget({ delayMs }),
    store,
    uploader,
    appVersion: "1.0.0",
    system: async () => fakeSystem,
    sampleIntervalMs: 5,
  });
  const perf = {
    runner,
    uploader,
    preview: async (query: { model_id?: string; result_id?: string }) =>
      previewUpload(
        query.result_id ? { result: await store.get(query.result_id) } : { modelId: "fake-model" },
        {
          buildPayload,
          resolveModel,
          getEndpoint,
          appVersion: "1.0.0",
        },
      ),
  };
  app = await createServer({
    allowRemoteAdmin: false,
    register: (server) => registerPerfRoutes(server, { perf }),
  });
  url = await app.listen({ host: "127.0.0.1", port: 0 });
});

afterAll(async () => {
  await app.close();
  await receiver.close();
  fs.rmSync(basePath, { recursive: true, force: true });
});

const post = (route: string, body?: unknown) =>
  fetch(`${url}${route}`, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function readStream(runId: string): Promise<PerfEvent[]> {
  const response = await fetch(`${url}/admin/api/bench/${runId}/stream`);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => perfEventSchema.parse(JSON.parse(line.slice(6))));
}

describe("perf admin routes", () => {
  it("starts a run (202), refuses a second one (409), streams it with replay", async () => {
    delayMs = 150;
    const started = await post("/admin/api/bench/start", {
      model_id: "fake-model",
      prompt_lengths: [128],
      batch_sizes: [2],
    });
    expect(started.status).toBe(202);
    const { run_id, stream_url } = (await started.json()) as { run_id: string; stream_url: string };
    expect(stream_url).toBe(`/admin/api/bench/${run_id}/stream`);

    const second = await post("/admin/api/bench/start", { model_id: "fake-model" });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe("conflict");

    const active = (await (await fetch(`${url}/admin/api/bench/active`)).json()) as {
      active: { run_id: string };
    };
    expect(active.active.run_id).toBe(run_id);

    const live = await readStream(run_id);
    expect(live[0].type).toBe("started");
    expect(live.at(-1)?.type).toBe("completed");
    // A subscriber after the end gets the same run, replayed.
    expect(await readStream(run_id)).toEqual(live);
    expect(await (await fetch(`${url}/admin/api/bench/active`)).json()).toEqual({ active: null });
    delayMs = 2;
  });

  it("cancels a run", async () => {
    delayMs = 150;
    const started = await post("/admin/api/bench/start", {
      model_id: "fake-model",
      prompt_lengths: [128, 512],
    });
    const { run_id } = (await started.json()) as { run_id: string };
    const cancelled = await post(`/admin/api/bench/${run_id}/cancel`);
    expect(cancelled.status).toBe(200);
    const events = await readStream(run_id);
    expect(events.at(-1)?.type).toBe("cancelled");
    expect((await post("/admin/api/bench/perf-run-000000000000/cancel")).status).toBe(404);
    delayMs = 2;
  });

  it("answers typed 4xx errors for bad input and unknown runs", async () => {
    const bad = await post("/admin/api/bench/start", { model_id: "fake-model", prompt_lengths: [100] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const both = await post("/admin/api/bench/start", {
      model_id: "fake-model",
      external: { base_url: "http://127.0.0.1:9/v1", model: "m" },
    });
    expect(both.status).toBe(400);
    const unknownStream = await fetch(`${url}/admin/api/bench/perf-run-000000000000/stream`);
    expect(unknownStream.status).toBe(404);
    expect(((await unknownStream.json()) as { error: { code: string } }).error.code).toBe("run_not_found");
    expect((await post("/admin/api/bench/results/..%2Fetc/upload")).status).toBe(400);
    expect((await post("/admin/api/bench/results/perf-missing/upload")).status).toBe(404);
    expect((await fetch(`${url}/admin/api/bench/upload/preview`)).status).toBe(400);
  });

  it("retries an upload and previews the payload", async () => {
    const started = await post("/admin/api/bench/start", {
      model_id: "fake-model",
      prompt_lengths: [128],
      batch_sizes: [],
      upload_to_community: true,
    });
    const { run_id } = (await started.json()) as { run_id: string };
    const events = await readStream(run_id);
    const completed = events.at(-1);
    if (completed?.type !== "completed") throw new Error("not completed");
    expect(completed.result.upload.state).toBe("failed");
    const resultId = completed.result.result_id;

    const retried = await post(`/admin/api/bench/results/${resultId}/upload`);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ result_id: resultId, upload: { state: "uploaded" } });
    expect((await post(`/admin/api/bench/results/${resultId}/upload`)).status).toBe(409);

    const preview = (await (
      await fetch(`${url}/admin/api/bench/upload/preview?result_id=${resultId}`)
    ).json()) as {
      payload: unknown;
      skip: unknown;
    };
    expect(preview.skip).toBeNull();
    expect(preview.payload).toEqual(receiver.received.at(-1)?.body);
    const byModel = (await (
      await fetch(`${url}/admin/api/bench/upload/preview?model_id=fake-model`)
    ).json()) as {
      payload: { model: unknown; results: { single: unknown[] } };
      from_result_id: null;
    };
    expect(byModel.from_result_id).toBeNull();
    expect(byModel.payload.results.single).toEqual([]);
    // Facts from the GGUF header; the context is the one the scheduler would use (capped at 8192).
    expect(byModel.payload.model).toMatchObject({
      name: "Tiny Preview",
      quantization: "Q4_K_M",
      parameter_count: 300,
      context_size: 8192,
    });
  });
});
