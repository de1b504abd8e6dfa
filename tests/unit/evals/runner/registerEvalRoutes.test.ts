import { afterEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { evalRunEventSchema, type EvalRunEvent } from "../../../../src-shared/contracts/evalQueue.js";
import { createServer } from "../../../../src-main/server/createServer.js";
import { registerEvalRoutes } from "../../../../src-main/server/admin/registerEvalRoutes.js";
import { createQueueFixture } from "./queueFixture.js";
import { flush } from "./fakes.js";

const base = "/admin/api/bench/accuracy";

function parseSse(body: string): EvalRunEvent[] {
  return body
    .split("\n\n")
    .filter((chunk) => chunk.startsWith("data: "))
    .map((chunk) => evalRunEventSchema.parse(JSON.parse(chunk.slice("data: ".length))));
}

describe("registerEvalRoutes", () => {
  let app: FastifyInstance | undefined;
  let stopQueue: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stopQueue?.();
    await app?.close();
    app = undefined;
  });

  async function start(count = 1) {
    const fixture = createQueueFixture({ count });
    stopQueue = () => fixture.queue.close();
    app = await createServer({
      allowRemoteAdmin: false,
      register: (server) => registerEvalRoutes(server, { queue: fixture.queue }),
    });
    return { ...fixture, app };
  }

  it("adds a run, lists it, and streams its whole history to a late subscriber", async () => {
    const { app, fake, queue } = await start(1);
    const added = await app.inject({
      method: "POST",
      url: `${base}/queue`,
      payload: { model_id: "m1", benchmarks: ["gsm8k"], batch_size: 4, thinking: "off" },
    });
    expect(added.statusCode).toBe(202);
    const run = added.json();
    expect(run).toMatchObject({
      state: "running",
      batch_size: 4,
      sampling_profile: "deterministic",
      sample_size: 0,
    });

    const listing = (await app.inject({ method: "GET", url: `${base}/queue` })).json();
    expect(listing.running.run_id).toBe(run.run_id);

    // A subscriber during the run gets the replay so far, then live events until the end.
    const live = app.inject({ method: "GET", url: `${base}/${run.run_id}/stream` });
    await flush();
    fake.answer("gsm8k-q0", "a0");
    await queue.idle();
    const liveResponse = await live;
    expect(liveResponse.headers["content-type"]).toMatch(/text\/event-stream/);
    const liveEvents = parseSse(liveResponse.body);
    expect(liveEvents.map((event) => event.type)).toEqual([
      "run_queued",
      "run_started",
      "benchmark_started",
      "question_done",
      "benchmark_finished",
      "run_finished",
    ]);

    const late = await app.inject({ method: "GET", url: `${base}/${run.run_id}/stream` });
    expect(parseSse(late.body)).toEqual(liveEvents);
  });

  it("never sends an external target's API key back", async () => {
    const { app } = await start();
    const added = await app.inject({
      method: "POST",
      url: `${base}/queue`,
      payload: {
        external: { base_url: "http://127.0.0.1:9/v1", api_key: "sk-secret", model: "big" },
        benchmarks: ["gsm8k"],
      },
    });
    expect(added.statusCode).toBe(202);
    expect(added.body).not.toContain("sk-secret");
    expect(added.json().target).toEqual({
      kind: "external",
      base_url: "http://127.0.0.1:9/v1",
      model: "big",
      api_key_set: true,
    });
  });

  it("validates bodies and params", async () => {
    const { app } = await start();
    const cases = [
      { benchmarks: ["gsm8k"] },
      { model_id: "m1", external: { base_url: "http://x", model: "y" }, benchmarks: ["gsm8k"] },
      { model_id: "m1", benchmarks: [] },
      { model_id: "m1", benchmarks: ["gsm8k"], batch_size: 3 },
      { model_id: "m1", benchmarks: ["gsm8k"], sampling_profile: "creative" },
      { model_id: "m1", benchmarks: ["gsm8k"], thinking: "maybe" },
      { model_id: "m1", benchmarks: ["gsm8k"], extra: true },
      { external: { base_url: "file:///etc", model: "y" }, benchmarks: ["gsm8k"] },
      { model_id: "m1", benchmarks: ["nope"] },
      { model_id: "m1", benchmarks: ["humaneval"] },
    ];
    for (const payload of cases) {
      const response = await app.inject({ method: "POST", url: `${base}/queue`, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe("invalid_request");
    }
    const badId = await app.inject({ method: "DELETE", url: `${base}/queue/..%2F..` });
    expect(badId.statusCode).toBe(400);
    const missing = await app.inject({ method: "GET", url: `${base}/run-missing/stream` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("run_not_found");
  });

  it("removes a waiting run and cancels the running one", async () => {
    const { app, fake, queue, results } = await start(3);
    const first = (
      await app.inject({
        method: "POST",
        url: `${base}/queue`,
        payload: { model_id: "m1", benchmarks: ["gsm8k"], thinking: "off" },
      })
    ).json();
    const second = (
      await app.inject({
        method: "POST",
        url: `${base}/queue`,
        payload: { model_id: "m1", benchmarks: ["mmlu"], thinking: "off" },
      })
    ).json();
    expect(second).toMatchObject({ state: "queued", position: 1 });

    const conflict = await app.inject({ method: "DELETE", url: `${base}/queue/${first.run_id}` });
    expect(conflict.statusCode).toBe(409);
    const removed = await app.inject({ method: "DELETE", url: `${base}/queue/${second.run_id}` });
    expect(removed.json()).toMatchObject({ state: "removed" });

    await flush();
    fake.answer("gsm8k-q0", "a0");
    await flush();
    const cancelled = await app.inject({ method: "POST", url: `${base}/${first.run_id}/cancel` });
    expect(cancelled.statusCode).toBe(200);
    await queue.idle();
    expect((await app.inject({ method: "GET", url: `${base}/queue` })).json().finished[0]).toMatchObject({
      run_id: first.run_id,
      state: "cancelled",
    });
    expect(results.results).toHaveLength(1);
    expect(results.results[0]).toMatchObject({ status: "cancelled", total: 1 });
    const unknown = await app.inject({ method: "POST", url: `${base}/run-unknown/cancel` });
    expect(unknown.statusCode).toBe(404);
  });
});
