import crypto from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  communityUploadPayloadSchema,
  perfEventSchema,
  type PerfEvent,
  type PerformanceResult,
} from "../../../src-shared/contracts/performance.js";
import { createLocalTarget } from "../../../src-main/perf/createLocalTarget.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";
import { startReceiver } from "../../unit/perf/receiver.js";

let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  server = await startTestServer({ threads: 1 });
  receiver = await startReceiver([201]);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const post = (route: string, body?: unknown) =>
  fetch(`${server.url}${route}`, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function streamRun(runId: string, onEvent?: (event: PerfEvent) => void): Promise<PerfEvent[]> {
  const response = await fetch(`${server.url}/admin/api/bench/${runId}/stream`);
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: PerfEvent[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const line = buffer
        .slice(0, end)
        .split("\n")
        .find((part) => part.startsWith("data: "));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      if (!line) continue;
      const event = perfEventSchema.parse(JSON.parse(line.slice(6)));
      events.push(event);
      onEvent?.(event);
    }
  }
  return events;
}

function completedResult(events: PerfEvent[]): PerformanceResult {
  const last = events.at(-1);
  if (last?.type !== "completed") throw new Error(`the run ended with ${JSON.stringify(last)}`);
  return last.result;
}

describe("performance run on the generated test model", () => {
  it("measures exact prompt lengths and forced generation lengths, suspends the TTL, and stores the result", async () => {
    const started = await post("/admin/api/bench/start", {
      model_id: server.mainModelId,
      prompt_lengths: [128, 512],
      batch_sizes: [2],
    });
    expect(started.status).toBe(202);
    const { run_id } = (await started.json()) as { run_id: string };
    const conflict = await post("/admin/api/bench/start", { model_id: server.mainModelId });
    expect(conflict.status).toBe(409);

    let ttlSuspendedDuringRun = false;
    const events = await streamRun(run_id, (event) => {
      if (event.type === "test_started") {
        const entry = server.core.engine.list().find((model) => model.id === server.mainModelId);
        ttlSuspendedDuringRun ||= entry?.ttlSuspended === true;
      }
    });
    const result = completedResult(events);
    expect(ttlSuspendedDuringRun).toBe(true);
    expect(server.core.engine.list().find((model) => model.id === server.mainModelId)?.ttlSuspended).toBe(
      false,
    );

    // Exact counts: what the scheduler evaluated is what was asked for, and 128 tokens each.
    expect(result.single.map((test) => test.prompt_tokens)).toEqual([128, 512]);
    expect(result.single.map((test) => test.generated_tokens)).toEqual([128, 128]);
    expect(result.batch).toHaveLength(1);
    expect(result.batch[0]).toMatchObject({ batch_size: 2, prompt_tokens: 512, generated_tokens: 256 });
    // Unique prefixes: nothing came from an earlier prompt's cache (warm-up included).
    for (const test of result.single) expect(test.cached_prompt_tokens).toBe(0);
    for (const test of result.single) {
      for (const value of [test.pp_tps, test.tg_tps, test.ttft_ms, test.tpot_ms, test.e2e_ms]) {
        expect(Number.isFinite(value) && value > 0).toBe(true);
      }
      expect(test.peak_rss_bytes).toBeGreaterThan(10 * 1024 * 1024);
    }
    expect(result.batch[0].aggregate_pp_tps).toBeGreaterThan(0);
    expect(result.batch[0].aggregate_tg_tps).toBeGreaterThan(0);
    expect(result.model).toMatchObject({ quantization: "Q8_0", context_size: 4096 });
    expect(result.model.parameter_count).toBeGreaterThan(10_000);
    expect(result.environment).toMatchObject({ backend: "cpu", threads: 1, experimental_features: [] });
    expect(result.upload).toEqual({ state: "not_requested" });
    expect(receiver.received).toHaveLength(0);

    // Persisted through the catalog's store, and the model's speed summary follows it.
    const stored = (await (
      await fetch(`${server.url}/admin/api/bench/results/${result.result_id}`)
    ).json()) as {
      result_id: string;
    };
    expect(stored.result_id).toBe(result.result_id);
    const row = (await (await fetch(`${server.url}/admin/api/models/${server.mainModelId}`)).json()) as {
      performance: { result_id: string; prompt_tokens: number } | null;
    };
    expect(row.performance?.result_id).toBe(result.result_id);
    // A late subscriber gets the same run again.
    expect(await streamRun(run_id)).toEqual(events);
  });

  it("cuts prompts to exact token counts with the model's own tokenizer, each with a new first token", async () => {
    const target = await createLocalTarget(server.mainModelId, {
      engine: server.core.engine,
      generate: (request) => server.core.scheduler.generate(request),
    });
    try {
      const loaded = await server.core.engine.acquire(server.mainModelId);
      const firstTokens = new Set<number>();
      for (const tokens of [2, 3, 5, 17, 64, 128, 129, 300, 511, 512, 1000, 2048]) {
        const prompt = target.buildPrompt(tokens);
        const encoded = loaded.model.tokenize(prompt.text, false, "trimLeadingSpace");
        expect(encoded.length + (loaded.model.tokens.bos === null ? 0 : 1)).toBe(tokens);
        expect(prompt.expectedTokens).toBe(tokens);
        firstTokens.add(encoded[0]);
      }
      expect(firstTokens.size).toBe(12);
      server.core.engine.release(loaded);
    } finally {
      await target.close();
    }
  });

  it("uploads with opt-in: exactly the allowed payload, the real file hash, nothing private", async () => {
    const settings = await fetch(`${server.url}/admin/api/settings`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ community_upload_url: receiver.url }),
    });
    expect(settings.status).toBe(200);
    const preview = (await (
      await fetch(
        `${server.url}/admin/api/bench/upload/preview?model_id=${encodeURIComponent(server.mainModelId)}`,
      )
    ).json()) as { skip: unknown; payload: { model: Record<string, unknown> } };
    expect(preview.skip).toBeNull();

    const started = await post("/admin/api/bench/start", {
      model_id: server.mainModelId,
      prompt_lengths: [128],
      batch_sizes: [],
      upload_to_community: true,
    });
    const { run_id } = (await started.json()) as { run_id: string };
    const events = await streamRun(run_id);
    const result = completedResult(events);
    expect(result.upload).toMatchObject({ state: "uploaded" });
    expect(receiver.received).toHaveLength(1);
    const payload = communityUploadPayloadSchema.parse(receiver.received[0].body);
    const modelFile = (await server.core.models.resolve(server.mainModelId)).path;
    expect(payload.model.file_sha256).toBe(
      crypto.createHash("sha256").update(fs.readFileSync(modelFile)).digest("hex"),
    );
    expect(payload.model).toEqual(preview.payload.model);
    expect(payload.results.single).toEqual([
      {
        prompt_tokens: 128,
        generated_tokens: 128,
        pp_tps: result.single[0].pp_tps,
        tg_tps: result.single[0].tg_tps,
        ttft_ms: result.single[0].ttft_ms,
      },
    ]);
    expect(receiver.received[0].raw).not.toContain(server.basePath);
    expect(receiver.received[0].raw).not.toContain(modelFile);
  });

  it("cancels a run over HTTP and keeps nothing", async () => {
    const before = server.core.performanceResults;
    const countBefore = (await before.list()).length;
    const started = await post("/admin/api/bench/start", {
      model_id: server.mainModelId,
      prompt_lengths: [128, 512, 1024, 4096],
      batch_sizes: [2, 4, 8],
    });
    const { run_id } = (await started.json()) as { run_id: string };
    let cancelSent = false;
    const events = await streamRun(run_id, (event) => {
      if (event.type === "test_started" && !cancelSent) {
        cancelSent = true;
        void post(`/admin/api/bench/${run_id}/cancel`);
      }
    });
    expect(events.at(-1)?.type).toBe("cancelled");
    expect((await before.list()).length).toBe(countBefore);
    expect(await (await fetch(`${server.url}/admin/api/bench/active`)).json()).toEqual({ active: null });
  });

  it("a run cancelled after a test finished keeps that test as a cancelled result, not the model's speed", async () => {
    const rowSpeed = async () =>
      (
        (await (
          await fetch(`${server.url}/admin/api/models/${encodeURIComponent(server.mainModelId)}`)
        ).json()) as {
          performance: { result_id: string } | null;
        }
      ).performance;
    const speedBefore = await rowSpeed();
    const started = await post("/admin/api/bench/start", {
      model_id: server.mainModelId,
      prompt_lengths: [128, 512],
      batch_sizes: [],
      // Long enough that the cancel lands inside the second test.
      generated_tokens: 1024,
    });
    const { run_id } = (await started.json()) as { run_id: string };
    let starts = 0;
    const events = await streamRun(run_id, (event) => {
      if (event.type === "test_started" && ++starts === 2) void post(`/admin/api/bench/${run_id}/cancel`);
    });
    const last = events.at(-1);
    if (last?.type !== "cancelled" || !last.result)
      throw new Error(`the run ended with ${JSON.stringify(last)}`);
    expect(last.result).toMatchObject({ status: "cancelled", single: [{ prompt_tokens: 128 }], batch: [] });
    const stored = (await (
      await fetch(`${server.url}/admin/api/bench/results/${last.result.result_id}`)
    ).json()) as PerformanceResult;
    expect(stored.status).toBe("cancelled");
    expect(await rowSpeed()).toEqual(speedBefore);
  });
});
