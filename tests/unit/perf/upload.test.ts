import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  communityUploadPayloadSchema,
  perfRunRequestSchema,
  performanceResultSchema,
  type PerformanceResult,
  type PerfRunRequestInput,
} from "../../../src-shared/contracts/performance.js";
import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import { PerfRunner } from "../../../src-main/perf/PerfRunner.js";
import type { PerfTarget } from "../../../src-main/perf/PerfTarget.js";
import { CommunityUploader } from "../../../src-main/perf/upload/CommunityUploader.js";
import { createPayloadBuilder } from "../../../src-main/perf/upload/createPayloadBuilder.js";
import { FileHashCache } from "../../../src-main/perf/upload/FileHashCache.js";
import { findExperimentalFeatures } from "../../../src-main/perf/upload/findExperimentalFeatures.js";
import { previewUpload } from "../../../src-main/perf/upload/previewUpload.js";
import { ownerSaltFileName, readOwnerHash } from "../../../src-main/perf/upload/readOwnerHash.js";
import { ResultStore } from "../../../src-main/storage/ResultStore.js";
import { fakeSystem, fakeTarget } from "./fakes.js";
import { startReceiver } from "./receiver.js";

/** Every key path the community site may receive — the list, nothing more. */
const allowedKeyPaths = [
  "schema_version",
  "submission_id",
  "owner_hash",
  "app_version",
  "os",
  "os.platform",
  "os.version",
  "os.arch",
  "hardware",
  "hardware.chip",
  "hardware.memory_bytes",
  "hardware.gpu_cores",
  "model",
  "model.name",
  "model.quantization",
  "model.parameter_count",
  "model.file_sha256",
  "model.context_size",
  "results",
  "results.single",
  "results.single[].prompt_tokens",
  "results.single[].generated_tokens",
  "results.single[].pp_tps",
  "results.single[].tg_tps",
  "results.single[].ttft_ms",
  "results.batch",
  "results.batch[].batch_size",
  "results.batch[].prompt_tokens",
  "results.batch[].aggregate_pp_tps",
  "results.batch[].aggregate_tg_tps",
  "results.batch[].mean_ttft_ms",
  "results.peak_memory_bytes",
].sort();

function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => keyPaths(item, `${prefix}[]`)))];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const here = prefix ? `${prefix}.${key}` : key;
    return [here, ...keyPaths(child, here)];
  });
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(
  options: { statuses?: number[]; endpoint?: "receiver" | null; settings?: ModelSettings } = {},
) {
  const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-perf-upload-"));
  cleanups.push(() => fs.rmSync(basePath, { recursive: true, force: true }));
  const modelDir = path.join(basePath, "models", "private-folder-of-someone");
  fs.mkdirSync(modelDir, { recursive: true });
  const modelFile = path.join(modelDir, "my-model.Q8_0.gguf");
  fs.writeFileSync(modelFile, crypto.randomBytes(300_000));
  const receiver = await startReceiver(options.statuses);
  cleanups.push(receiver.close);
  let endpoint: string | null = options.endpoint === null ? null : receiver.url;
  const store = new ResultStore({
    dir: path.join(basePath, "benchmarks", "performance", "results"),
    schema: performanceResultSchema,
    label: "performance result",
  });
  const settings = options.settings ?? {};
  const resolveModel = async (id: string) => ({ id, path: modelFile, settings });
  const buildPayload = createPayloadBuilder({
    basePath,
    resolveModel,
    hashes: new FileHashCache(path.join(basePath, "benchmarks", "performance", "file_hashes.json")),
    system: async () => fakeSystem,
  });
  const uploader = new CommunityUploader({
    store,
    getEndpoint: async () => endpoint,
    buildPayload,
    timeoutMs: 3000,
  });
  const run = async (input: Partial<PerfRunRequestInput>, target: PerfTarget = fakeTarget()) => {
    const runner = new PerfRunner({
      createTarget: async () => target,
      store,
      uploader,
      appVersion: "1.2.3",
      system: async () => fakeSystem,
      sampleIntervalMs: 5,
    });
    const started = await runner.start(
      perfRunRequestSchema.parse({
        model_id: "fake-model",
        prompt_lengths: [128, 512],
        batch_sizes: [2],
        ...input,
      }),
    );
    await runner.idle();
    const last = started.history().at(-1);
    if (last?.type !== "completed") throw new Error(`run ended with ${JSON.stringify(last)}`);
    return { result: last.result, events: started.history() };
  };
  return {
    basePath,
    modelFile,
    receiver,
    store,
    uploader,
    buildPayload,
    resolveModel,
    run,
    setEndpoint: (value: string | null) => (endpoint = value),
  };
}

describe("community upload", () => {
  it("sends nothing without opt-in (the default)", async () => {
    const { run, receiver, store } = await setup();
    const { result } = await run({});
    expect(result.upload_requested).toBe(false);
    expect(result.upload).toEqual({ state: "not_requested" });
    expect((await store.get(result.result_id)).upload).toEqual({ state: "not_requested" });
    expect(receiver.received).toHaveLength(0);
  });

  it("with opt-in sends exactly the allowed fields, and no paths, user names or prompts", async () => {
    const { run, receiver, store, basePath, modelFile } = await setup();
    const target = fakeTarget();
    const { result, events } = await run({ upload_to_community: true }, target);
    expect(result.upload).toMatchObject({ state: "uploaded", remote_id: "remote-1" });
    expect((await store.get(result.result_id)).upload.state).toBe("uploaded");
    expect(
      events.filter((e) => e.type === "upload").map((e) => e.type === "upload" && e.status.state),
    ).toEqual(["uploading", "uploaded"]);
    expect(receiver.received).toHaveLength(1);
    const [sent] = receiver.received;
    expect(sent.method).toBe("POST");
    expect(sent.headers["content-type"]).toContain("application/json");
    expect(keyPaths(sent.body).sort()).toEqual(allowedKeyPaths);
    const payload = communityUploadPayloadSchema.parse(sent.body);
    expect(payload).toMatchObject({
      submission_id: result.result_id,
      app_version: "1.2.3",
      os: { platform: "darwin", version: "14.5", arch: "arm64" },
      hardware: { chip: "Apple M2 Pro", memory_bytes: 32 * 1024 ** 3, gpu_cores: 19 },
      model: { name: "Fake", quantization: "Q8_0", parameter_count: 1000, context_size: 4096 },
    });
    expect(payload.model.file_sha256).toBe(
      crypto.createHash("sha256").update(fs.readFileSync(modelFile)).digest("hex"),
    );
    expect(payload.results.single.map((t) => t.pp_tps)).toEqual(result.single.map((t) => t.pp_tps));
    expect(payload.results.batch).toHaveLength(1);
    expect(payload.results.peak_memory_bytes).toBe(result.peak_rss_bytes);
    const secrets = [basePath, modelFile, "private-folder-of-someone", os.userInfo().username, os.hostname()];
    // Very short user or host names could occur by chance in hex digests; those prove nothing.
    for (const secret of secrets.filter((text) => text.length >= 5)) expect(sent.raw).not.toContain(secret);
    for (const prompt of target.prompts) expect(sent.raw).not.toContain(prompt.text.slice(0, 20));
  });

  it("skips with a recorded reason when experimental features were active", async () => {
    const { run, receiver } = await setup();
    const target = fakeTarget({
      experimentalFeatures: findExperimentalFeatures({ speculative: { mode: "draft" } }),
    });
    const { result } = await run({ upload_to_community: true }, target);
    expect(result.upload).toMatchObject({ state: "skipped", code: "experimental_features" });
    expect(result.upload.state === "skipped" && result.upload.reason).toContain(
      "speculative decoding (draft)",
    );
    expect(result.environment.experimental_features).toEqual(["speculative decoding (draft)"]);
    expect(receiver.received).toHaveLength(0);
  });

  it("skips external targets with a recorded reason", async () => {
    const { run, receiver } = await setup();
    const target = {
      ...fakeTarget(),
      info: {
        kind: "external" as const,
        base_url: "http://127.0.0.1:9/v1",
        model: "m",
        api: "completions" as const,
      },
      modelId: "external:m",
    };
    const { result } = await run({ upload_to_community: true }, target);
    expect(result.upload).toMatchObject({ state: "skipped", code: "external_target" });
    expect(receiver.received).toHaveLength(0);
  });

  it("skips when no endpoint is configured", async () => {
    const { run, receiver } = await setup({ endpoint: null });
    const { result } = await run({ upload_to_community: true });
    expect(result.upload).toMatchObject({ state: "skipped", code: "no_endpoint" });
    expect(receiver.received).toHaveLength(0);
  });

  it("keeps the result when the upload fails, and a retry uploads it", async () => {
    const { run, receiver, store, uploader } = await setup({ statuses: [500, 201] });
    const { result } = await run({ upload_to_community: true });
    expect(result.upload).toMatchObject({ state: "failed", error: expect.stringContaining("HTTP 500") });
    const stored = await store.get(result.result_id);
    expect(stored.single).toEqual(result.single);
    expect(stored.upload.state).toBe("failed");
    const retried = await uploader.retry(result.result_id);
    expect(retried.upload).toMatchObject({ state: "uploaded" });
    expect((await store.get(result.result_id)).upload.state).toBe("uploaded");
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].raw).toBe(receiver.received[0].raw);
    await expect(uploader.retry(result.result_id)).rejects.toMatchObject({ code: "conflict" });
  });

  it("never uploads a run cancelled part-way, not even on a retry", async () => {
    const { run, receiver, store, uploader } = await setup();
    const { result } = await run({ upload_to_community: false });
    await store.put({ ...result, status: "cancelled" });
    await expect(uploader.retry(result.result_id)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("cancelled part-way"),
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("records a network failure (nothing listening) as failed, retryable", async () => {
    const { run, setEndpoint, uploader, receiver } = await setup();
    setEndpoint("http://127.0.0.1:9/unreachable");
    const { result } = await run({ upload_to_community: true });
    expect(result.upload.state).toBe("failed");
    setEndpoint(receiver.url);
    expect((await uploader.retry(result.result_id)).upload.state).toBe("uploaded");
  });

  it("marks HTTP 409 as duplicate", async () => {
    const { run, uploader } = await setup({ statuses: [409] });
    const { result } = await run({ upload_to_community: true });
    expect(result.upload).toMatchObject({ state: "duplicate" });
    await expect(uploader.retry(result.result_id)).rejects.toMatchObject({ code: "conflict" });
  });

  it("retries a result that was never requested once the user asks", async () => {
    const { run, uploader, receiver } = await setup();
    const { result } = await run({});
    const uploaded = await uploader.retry(result.result_id);
    expect(uploaded.upload.state).toBe("uploaded");
    expect(uploaded.upload_requested).toBe(true);
    expect(receiver.received).toHaveLength(1);
    await expect(uploader.retry("perf-nope")).rejects.toMatchObject({ code: "result_not_found" });
  });

  it("previews exactly what an upload sends, and why it would be skipped", async () => {
    const { run, receiver, buildPayload, resolveModel } = await setup();
    const { result } = await run({ upload_to_community: true });
    const options = {
      buildPayload,
      resolveModel,
      getEndpoint: async () => receiver.url,
      appVersion: "1.2.3",
    };
    const preview = await previewUpload({ result: result as PerformanceResult }, options);
    expect(preview.skip).toBeNull();
    expect(preview.from_result_id).toBe(result.result_id);
    expect(preview.payload).toEqual(receiver.received[0].body);
  });
});

describe("upload building blocks", () => {
  it("keeps one owner hash per install (random salt stored once), different across installs", async () => {
    const a = fs.mkdtempSync(path.join(os.tmpdir(), "perch-owner-"));
    const b = fs.mkdtempSync(path.join(os.tmpdir(), "perch-owner-"));
    cleanups.push(() => fs.rmSync(a, { recursive: true, force: true }));
    cleanups.push(() => fs.rmSync(b, { recursive: true, force: true }));
    const [first, concurrent] = await Promise.all([readOwnerHash(a), readOwnerHash(a)]);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(concurrent).toBe(first);
    expect(await readOwnerHash(a)).toBe(first);
    expect(await readOwnerHash(b)).not.toBe(first);
    const salt = fs.readFileSync(path.join(a, ownerSaltFileName), "utf8").trim();
    expect(first).not.toContain(salt);
  });

  it("hashes a model file once and rehashes it when it changes", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-hash-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "m.gguf");
    fs.writeFileSync(file, "first version");
    const cacheFile = path.join(dir, "hashes.json");
    const sha = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
    const cache = new FileHashCache(cacheFile);
    expect(await cache.cached(file)).toBeUndefined();
    expect(await cache.sha256(file)).toBe(sha("first version"));
    expect(await new FileHashCache(cacheFile).cached(file)).toBe(sha("first version"));
    fs.writeFileSync(file, "second version, longer");
    expect(await cache.cached(file)).toBeUndefined();
    expect(await cache.sha256(file)).toBe(sha("second version, longer"));
  });

  it("finds experimental settings", () => {
    expect(findExperimentalFeatures({})).toEqual([]);
    expect(findExperimentalFeatures({ kv_cache_type: "f16", speculative: { mode: "off" } })).toEqual([]);
    expect(findExperimentalFeatures({ kv_cache_type: "q8_0" })).toEqual(["KV cache type q8_0"]);
    expect(findExperimentalFeatures({ speculative: { mode: "lookup" } }, ["flash attention"])).toEqual([
      "speculative decoding (lookup)",
      "flash attention",
    ]);
  });

  it("rejects a payload with any extra field", () => {
    const base = {
      schema_version: 1,
      submission_id: "perf-x",
      owner_hash: "a".repeat(64),
      app_version: "1",
      os: { platform: "linux", version: "6", arch: "x64" },
      hardware: { chip: "cpu", memory_bytes: 1, gpu_cores: null },
      model: {
        name: "m",
        quantization: null,
        parameter_count: null,
        file_sha256: "b".repeat(64),
        context_size: 1,
      },
      results: { single: [], batch: [], peak_memory_bytes: 0 },
    };
    expect(communityUploadPayloadSchema.safeParse(base).success).toBe(true);
    expect(communityUploadPayloadSchema.safeParse({ ...base, user: "me" }).success).toBe(false);
    expect(
      communityUploadPayloadSchema.safeParse({ ...base, model: { ...base.model, path: "/Users/me/m.gguf" } })
        .success,
    ).toBe(false);
  });
});

describe("an upload cut by a crash", () => {
  it("is marked failed (interrupted) at the next start, so Retry is offered; a recent one is left alone", async () => {
    const { run, store, uploader } = await setup();
    const { result: stale } = await run({});
    const { result: recent } = await run({});
    const longAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    await store.put({ ...stale, upload: { state: "uploading", started_at: longAgo } });
    await store.put({ ...recent, upload: { state: "uploading", started_at: new Date().toISOString() } });

    expect(await uploader.failInterrupted()).toBe(1);
    expect((await store.get(stale.result_id)).upload).toMatchObject({
      state: "failed",
      error: "interrupted: Perch stopped during the upload",
    });
    expect((await store.get(recent.result_id)).upload.state).toBe("uploading");
    // Once an upload cannot still be running (past the timeout), the recent one is failed too.
    expect(await uploader.failInterrupted(Date.now() + 60_000)).toBe(1);
    expect((await store.get(recent.result_id)).upload.state).toBe("failed");
  });
});
