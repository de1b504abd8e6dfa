import { describe, expect, it } from "vitest";
import { accuracyResultSchema } from "../../../../src-shared/contracts/accuracy.js";
import { evalRunEventSchema, type EvalRunEvent } from "../../../../src-shared/contracts/evalQueue.js";
import type { BenchmarkSource } from "../../../../src-main/evals/queue/BenchmarkSource.js";
import { createFakeEngine, createQueueFixture } from "./queueFixture.js";
import { createFakeBenchmark, fakeItems, flush } from "./fakes.js";

describe("EvalQueue", () => {
  it("runs one run at a time, in order, and saves each benchmark's result", async () => {
    const { queue, fake, results, add } = createQueueFixture();
    const first = await add({ model_id: "m1", benchmarks: ["gsm8k", "mmlu"], thinking: "off" });
    const second = await add({ model_id: "m2", benchmarks: ["gsm8k"], thinking: "off" });
    await flush();
    const listing = queue.list();
    expect(listing.running?.run_id).toBe(first.run_id);
    expect(listing.queued.map((run) => [run.run_id, run.position])).toEqual([[second.run_id, 1]]);
    expect(fake.started()).toEqual(["gsm8k-q0"]);

    for (const id of ["gsm8k-q0", "gsm8k-q1", "mmlu-q0", "mmlu-q1"]) {
      fake.answer(id, `a${id.split("-q")[1]}`);
      await flush();
    }
    // The second run starts only now.
    expect(queue.list().running?.run_id).toBe(second.run_id);
    expect(fake.started().slice(4)).toEqual(["gsm8k-q0"]);
    fake.answer("gsm8k-q0", "a0");
    await flush();
    fake.answer("gsm8k-q1", "wrong");
    await queue.idle();

    expect(results.results.map((result) => [result.model_id, result.benchmark, result.accuracy])).toEqual([
      ["m1", "gsm8k", 1],
      ["m1", "mmlu", 1],
      ["m2", "gsm8k", 0.5],
    ]);
    const finished = queue.list().finished;
    expect(finished.map((run) => [run.run_id, run.state])).toEqual([
      [second.run_id, "completed"],
      [first.run_id, "completed"],
    ]);
    expect(finished[1].result_ids).toEqual(results.results.slice(0, 2).map((result) => result.result_id));
    expect(results.results[1]).toMatchObject({
      status: "completed",
      variant: "v2",
      batch_size: 1,
      sampling_profile: "deterministic",
      thinking: false,
      total: 2,
    });
    for (const result of results.results) expect(accuracyResultSchema.parse(result)).toEqual(result);
    expect(results.results[0].effective_sampling).toMatchObject({
      temperature: 0,
      repeat_penalty: 1,
      max_tokens: 64,
    });
    expect(results.results[0].questions.map((question) => question.id)).toEqual(["gsm8k-q0", "gsm8k-q1"]);
  });

  it("suspends the model's idle unload while the run uses it, and releases it after", async () => {
    const engine = createFakeEngine();
    const { queue, fake, add } = createQueueFixture({ engine, count: 1 });
    await add({ model_id: "m1", benchmarks: ["gsm8k"], thinking: "off" });
    await flush();
    expect(engine.suspended).toBe(1);
    expect(engine.log).toEqual(["load m1", "suspend m1"]);
    fake.answer("gsm8k-q0", "a0");
    await queue.idle();
    expect(engine.suspended).toBe(0);
    expect(engine.log).toEqual(["load m1", "suspend m1", "release m1"]);
  });

  it("removes a waiting run, which then never runs; a running one must be cancelled", async () => {
    const { queue, fake, add } = createQueueFixture({ count: 1 });
    const first = await add({ model_id: "m1", benchmarks: ["gsm8k"], thinking: "off" });
    const second = await add({ model_id: "m2", benchmarks: ["gsm8k"], thinking: "off" });
    expect(() => queue.remove(first.run_id)).toThrow(expect.objectContaining({ code: "conflict" }));
    expect(queue.remove(second.run_id)).toMatchObject({ state: "removed", position: null });
    expect(queue.list().queued).toEqual([]);
    await flush();
    fake.answer("gsm8k-q0", "a0");
    await queue.idle();
    expect(fake.started()).toEqual(["gsm8k-q0"]);
    const events: EvalRunEvent[] = [];
    queue.subscribe(second.run_id, (event) => events.push(event));
    expect(events.map((event) => event.type)).toEqual(["run_queued", "run_finished"]);
    expect(events[1]).toMatchObject({ state: "removed" });
    expect(() => queue.remove("run-nope")).toThrow(expect.objectContaining({ code: "run_not_found" }));
  });

  it("cancels a running run, keeps its partial result marked cancelled and starts the next run", async () => {
    const { queue, fake, results, add } = createQueueFixture({ count: 4 });
    const first = await add({
      model_id: "m1",
      benchmarks: ["gsm8k", "mmlu"],
      batch_size: 2,
      thinking: "off",
    });
    const second = await add({ model_id: "m2", benchmarks: ["mmlu"], sample_size: 1, thinking: "off" });
    await flush();
    fake.answer("gsm8k-q0", "a0");
    await flush();
    expect(fake.inFlight()).toEqual(["gsm8k-q1", "gsm8k-q2"]);
    await queue.cancel(first.run_id);
    await flush();
    expect(fake.calls.filter((call) => call.aborted).map((call) => call.id)).toEqual([
      "gsm8k-q1",
      "gsm8k-q2",
    ]);
    expect(queue.get(first.run_id).state).toBe("cancelled");
    expect(results.results[0]).toMatchObject({
      status: "cancelled",
      benchmark: "gsm8k",
      total: 1,
      accuracy: 1,
    });
    expect(results.results[0].questions.map((question) => question.failure_type)).toEqual([
      null,
      "cancelled",
      "cancelled",
    ]);
    // beta of the cancelled run never started; the second run did.
    expect(queue.list().running?.run_id).toBe(second.run_id);
    fake.answer("mmlu-q0", "a0");
    await queue.idle();
    expect(results.results.map((result) => [result.model_id, result.benchmark, result.status])).toEqual([
      ["m1", "gsm8k", "cancelled"],
      ["m2", "mmlu", "completed"],
    ]);
    await expect(queue.cancel(second.run_id)).rejects.toMatchObject({ code: "conflict" });
  });

  it("leaves a question the sandbox could not score out of the accuracy, and marks the benchmark", async () => {
    const { benchmark } = createFakeBenchmark();
    const benchmarks: BenchmarkSource = {
      names: () => ["humaneval"],
      async open() {
        const score: typeof benchmark.score = async (item, response, context) => {
          const result = await benchmark.score(item, response, context);
          if (response.answer !== "unscorable") return result;
          return { ...result, correct: false, failure_type: "scoring_error", error: "sandbox: failed" };
        };
        return {
          benchmark: { ...benchmark, name: "humaneval", score },
          items: fakeItems(2),
          variant: "test",
        };
      },
    };
    const { queue, fake, results, add } = createQueueFixture({ benchmarks });
    const run = await add({ model_id: "m1", benchmarks: ["humaneval"], thinking: "off" });
    await flush();
    fake.answer("q0");
    await flush();
    fake.answer("q1", "unscorable");
    await queue.idle();
    expect(results.results[0]).toMatchObject({ status: "completed", accuracy: 1, total: 1 });
    expect(results.results[0].questions.map((question) => question.failure_type)).toEqual([
      null,
      "scoring_error",
    ]);
    const events: EvalRunEvent[] = [];
    queue.subscribe(run.run_id, (event) => events.push(event));
    expect(events.find((event) => event.type === "benchmark_finished")).toMatchObject({
      status: "completed",
      accuracy: 1,
      total: 1,
      error: {
        code: "internal_error",
        message: expect.stringContaining("Of 2 questions, 1 could not be scored"),
      },
    });
    expect(events.at(-1)).toMatchObject({ type: "run_finished", state: "completed", error: null });
  });

  it("replays the whole run to a late subscriber, with typed, numbered events", async () => {
    const { queue, fake, add } = createQueueFixture({ count: 2 });
    const run = await add({ model_id: "m1", benchmarks: ["gsm8k"], batch_size: 2, thinking: "auto" });
    await flush();
    fake.answer("gsm8k-q1", "<think>hmm</think>a1");
    await flush();
    fake.answer("gsm8k-q0", "a0");
    await flush();
    fake.answer("gsm8k-q1", "a1");
    await queue.idle();

    const events: EvalRunEvent[] = [];
    let ended = false;
    queue.subscribe(
      run.run_id,
      (event) => events.push(event),
      () => (ended = true),
    );
    expect(ended).toBe(true);
    for (const event of events) expect(evalRunEventSchema.parse(event)).toEqual(event);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    expect(events.map((event) => event.type)).toEqual([
      "run_queued",
      "run_started",
      "benchmark_started",
      "thinking_detected",
      "question_done",
      "question_done",
      "benchmark_finished",
      "run_finished",
    ]);
    const done = events.filter((event) => event.type === "question_done");
    expect(
      done.map((event) => [event.index, event.correct, event.completed, event.running_accuracy]),
    ).toEqual([
      [0, true, 1, 1],
      [1, true, 2, 1],
    ]);
    expect(events.at(-2)).toMatchObject({ type: "benchmark_finished", thinking_used: true, accuracy: 1 });
  });

  it("refuses unknown benchmarks and unknown models when they are added", async () => {
    const { add } = createQueueFixture({
      assertModel: async (modelId) => {
        if (modelId === "ghost") throw Object.assign(new Error("no"), { code: "model_not_found" });
      },
    });
    await expect(add({ model_id: "m1", benchmarks: ["humaneval"] })).rejects.toMatchObject({
      code: "invalid_request",
    });
    await expect(add({ model_id: "ghost", benchmarks: ["gsm8k"] })).rejects.toMatchObject({
      code: "model_not_found",
    });
  });

  it("fails a run whose model cannot be loaded, without suspending anything", async () => {
    const engine = createFakeEngine({ missing: ["gone"] });
    const { queue, add } = createQueueFixture({ engine });
    const run = await add({ model_id: "gone", benchmarks: ["gsm8k"] });
    await queue.idle();
    expect(queue.get(run.run_id)).toMatchObject({
      state: "failed",
      error: { code: "model_not_found", message: "Model 'gone' not found." },
    });
    expect(engine.log).toEqual([]);
  });

  it("uses the model's saved sampling with the model_settings profile", async () => {
    const { queue, fake, add, results, generateRequests } = createQueueFixture({
      count: 1,
      modelSampling: () => ({ temperature: 0.6, top_k: 20 }),
    });
    await add({ model_id: "m1", benchmarks: ["gsm8k"], sampling_profile: "model_settings", thinking: "off" });
    await flush();
    expect(generateRequests[0].sampling).toEqual({ temperature: 0.6, topK: 20 });
    fake.answer("gsm8k-q0", "a0");
    await queue.idle();
    expect(results.results[0]).toMatchObject({
      sampling_profile: "model_settings",
      effective_sampling: { temperature: 0.6, top_k: 20 },
    });
  });

  it("refuses more waiting runs than it holds", async () => {
    const { add } = createQueueFixture({ maxWaiting: 1 });
    await add({ model_id: "m1", benchmarks: ["gsm8k"] });
    await add({ model_id: "m1", benchmarks: ["gsm8k"] });
    await expect(add({ model_id: "m1", benchmarks: ["gsm8k"] })).rejects.toMatchObject({
      code: "queue_full",
    });
  });
});
