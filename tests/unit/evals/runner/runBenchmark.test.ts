import { describe, expect, it } from "vitest";
import { runBenchmark, type RunnerEvent } from "../../../../src-main/evals/runner/runBenchmark.js";
import { resolveSampling } from "../../../../src-main/evals/runner/resolveSampling.js";
import type { ScoreContext } from "../../../../src-main/evals/benchmarks/Benchmark.js";
import type { ModelResponse } from "../../../../src-main/evals/benchmarks/ModelResponse.js";
import type { CodeSandbox } from "../../../../src-main/evals/scoring/SandboxRun.js";
import { createControlledTarget, createFakeBenchmark, fakeItems, flush } from "./fakes.js";

function collect() {
  const events: RunnerEvent[] = [];
  return {
    events,
    onEvent: (event: RunnerEvent) => events.push(event),
    doneOrder: () => events.flatMap((event) => (event.type === "question_done" ? [event.result.id] : [])),
  };
}

describe("runBenchmark refill scheduling", () => {
  it("refills a slot the moment it completes, before the slow request finishes", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const progress = collect();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(4),
      target: fake.target,
      batchSize: 2,
      thinking: "off",
      onEvent: progress.onEvent,
    });
    await flush();
    expect(fake.started()).toEqual(["q0", "q1"]);

    fake.answer("q1"); // q0 is the slow one and is still running
    await flush();
    expect(fake.started()).toEqual(["q0", "q1", "q2"]);
    expect(fake.inFlight()).toEqual(["q0", "q2"]);

    fake.answer("q2");
    await flush();
    expect(fake.started()).toEqual(["q0", "q1", "q2", "q3"]);
    fake.answer("q3");
    fake.answer("q0");
    const result = await run;

    expect(progress.doneOrder()).toEqual(["q1", "q2", "q3", "q0"]);
    expect(result.questions.map((question) => question.id)).toEqual(["q0", "q1", "q2", "q3"]);
    expect(result).toMatchObject({ status: "completed", total: 4, scored: 4, correct: 4, accuracy: 1 });
  });

  it("never runs more than batch_size generations at once", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(10),
      target: fake.target,
      batchSize: 4,
      thinking: "off",
    });
    let most = 0;
    for (let step = 0; step < 10; step += 1) {
      await flush();
      most = Math.max(most, fake.inFlight().length);
      const oldest = fake.inFlight()[0];
      if (oldest) fake.answer(oldest);
    }
    await run;
    expect(most).toBe(4);
    expect(fake.calls).toHaveLength(10);
  });

  it("records each question's own generation time, not a batch average", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    let now = 0;
    const run = runBenchmark({
      benchmark,
      items: fakeItems(3),
      target: fake.target,
      batchSize: 2,
      thinking: "off",
      clock: () => now,
    });
    await flush(); // q0, q1 start at t=0
    now = 1000;
    fake.answer("q1"); // q1 took 1 s; q2 starts at t=1
    await flush();
    now = 5000;
    fake.answer("q0"); // q0 took 5 s
    await flush();
    now = 7000;
    fake.answer("q2"); // q2 took 6 s
    const result = await run;
    expect(result.questions.map((question) => question.time_s)).toEqual([5, 1, 6]);
    expect(result.timings).toEqual({ total_s: 7, generation_s: 12, scoring_s: 0 });
  });

  it("reports running accuracy and an ETA with every question", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const progress = collect();
    let now = 0;
    const run = runBenchmark({
      benchmark,
      items: fakeItems(4),
      target: fake.target,
      thinking: "off",
      clock: () => now,
      onEvent: progress.onEvent,
    });
    for (const [id, text] of [
      ["q0", "a0"],
      ["q1", "wrong"],
      ["q2", "a2"],
      ["q3", "a3"],
    ]) {
      await flush();
      now += 2000;
      fake.answer(id, text);
    }
    await run;
    const done = progress.events.filter((event) => event.type === "question_done");
    expect(done.map((event) => event.runningAccuracy)).toEqual([1, 0.5, 2 / 3, 0.75]);
    expect(done.map((event) => event.etaSeconds)).toEqual([6, 4, 2, 0]);
    expect(done[1].result.failure_type).toBe("wrong_answer");
  });
});

describe("runBenchmark cancellation", () => {
  it("aborts in-flight generations, drops queued items and keeps the partial result", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const controller = new AbortController();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(6),
      target: fake.target,
      batchSize: 2,
      thinking: "off",
      signal: controller.signal,
    });
    await flush();
    fake.answer("q0");
    await flush();
    expect(fake.started()).toEqual(["q0", "q1", "q2"]);

    controller.abort();
    const result = await run;
    expect(fake.calls.filter((call) => call.aborted).map((call) => call.id)).toEqual(["q1", "q2"]);
    expect(fake.started()).toEqual(["q0", "q1", "q2"]); // q3..q5 never started
    expect(result.status).toBe("cancelled");
    expect(result.questions.map((question) => [question.id, question.failure_type])).toEqual([
      ["q0", null],
      ["q1", "cancelled"],
      ["q2", "cancelled"],
    ]);
    expect(result).toMatchObject({ total: 6, scored: 1, correct: 1, accuracy: 1 });
  });

  it("stops scoring that is still running", async () => {
    const { benchmark, scoreGates } = createFakeBenchmark({ holdScoring: true });
    const fake = createControlledTarget();
    const controller = new AbortController();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(2),
      target: fake.target,
      batchSize: 2,
      thinking: "off",
      signal: controller.signal,
    });
    await flush();
    fake.answer("q0");
    fake.answer("q1");
    await flush();
    expect([...scoreGates.keys()]).toEqual(["q0", "q1"]);
    controller.abort();
    const result = await run;
    expect(result.status).toBe("cancelled");
    expect(result.questions.map((question) => question.failure_type)).toEqual(["cancelled", "cancelled"]);
    expect(result.questions[0].response).toBe("a0");
  });
});

describe("runBenchmark scoring queue", () => {
  it("keeps generating while scoring is slow", async () => {
    const { benchmark, scoreGates } = createFakeBenchmark({ holdScoring: true });
    const fake = createControlledTarget();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(6),
      target: fake.target,
      batchSize: 2,
      thinking: "off",
      maxPendingScores: 8,
    });
    for (let index = 0; index < 6; index += 1) {
      await flush();
      fake.answer(`q${index}`);
    }
    await flush();
    // Every generation ran although not one score has finished.
    expect(fake.started()).toHaveLength(6);
    expect(scoreGates.size).toBe(6);
    for (const gate of scoreGates.values()) gate.resolve();
    const result = await run;
    expect(result.correct).toBe(6);
  });

  it("applies backpressure only when the scoring queue is full", async () => {
    const { benchmark, scoreGates } = createFakeBenchmark({ holdScoring: true });
    const fake = createControlledTarget();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(5),
      target: fake.target,
      batchSize: 1,
      thinking: "off",
      maxPendingScores: 2,
    });
    await flush();
    fake.answer("q0");
    await flush();
    fake.answer("q1");
    await flush();
    expect(fake.started()).toEqual(["q0", "q1", "q2"]);
    fake.answer("q2"); // two scores pending: the slot must wait
    await flush();
    expect(fake.started()).toEqual(["q0", "q1", "q2"]);
    scoreGates.get("q0")!.resolve();
    await flush();
    expect(fake.started()).toEqual(["q0", "q1", "q2", "q3"]);
    fake.answer("q3");
    await flush();
    for (const gate of scoreGates.values()) gate.resolve();
    await flush();
    fake.answer("q4");
    await flush();
    for (const gate of scoreGates.values()) gate.resolve();
    expect((await run).correct).toBe(5);
  });
});

describe("runBenchmark reasoning split", () => {
  it("splits the reasoning off once and hands the benchmark the answer, the reasoning and the whole output", async () => {
    const { benchmark } = createFakeBenchmark();
    const seen: ModelResponse[] = [];
    const contexts: ScoreContext[] = [];
    const score = benchmark.score;
    benchmark.score = (item, response, context) => {
      seen.push(response);
      contexts.push(context);
      return score(item, response, context);
    };
    const sandbox: CodeSandbox = {
      run: () => Promise.reject(new Error("no code is run here")),
      close: () => Promise.resolve(),
    };
    const fake = createControlledTarget();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(2),
      target: fake.target,
      thinking: "on",
      sandbox,
    });
    await flush();
    fake.answer("q0", "<think>two steps</think>\na0");
    await flush();
    fake.answer("q1", "a1");
    const result = await run;
    expect(seen).toEqual([
      { raw: "<think>two steps</think>\na0", reasoning: "two steps", answer: "a0" },
      { raw: "a1", reasoning: null, answer: "a1" },
    ]);
    // The benchmark's sandbox reaches its score context.
    expect(
      contexts.every((context) => context.sandbox === sandbox && context.signal instanceof AbortSignal),
    ).toBe(true);
    expect(result.questions.map((question) => [question.response, question.correct])).toEqual([
      ["<think>two steps</think>\na0", true],
      ["a1", true],
    ]);
  });
});

describe("runBenchmark thinking auto-detection", () => {
  it("switches thinking on and reruns the probe batch when the model reasons with thinking off", async () => {
    const { benchmark } = createFakeBenchmark({ maxTokens: 64 });
    const fake = createControlledTarget();
    const progress = collect();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(4),
      target: fake.target,
      batchSize: 2,
      onEvent: progress.onEvent,
    });
    await flush();
    expect(fake.calls.map((call) => [call.id, call.request.thinking, call.request.maxTokens])).toEqual([
      ["q0", false, 64],
      ["q1", false, 64],
    ]);
    fake.answer("q1", "<think>hmm</think>a1");
    await flush();
    // The rest of the probe is stopped, then the probe reruns first with thinking on.
    expect(fake.calls[0].aborted).toBe(true);
    expect(progress.events[0]).toEqual({ type: "thinking_detected" });
    expect(
      fake.calls.slice(2).map((call) => [call.id, call.request.thinking, call.request.maxTokens]),
    ).toEqual([
      ["q0", true, 8192],
      ["q1", true, 8192],
    ]);
    fake.answer("q0", "<think>long reasoning</think>\na0");
    await flush();
    fake.answer("q1", "<think>x</think>a1");
    await flush();
    fake.answer("q2", "a2");
    await flush();
    fake.answer("q3", "<think>unclosed, out of tokens");
    const result = await run;
    expect(fake.started()).toEqual(["q0", "q1", "q0", "q1", "q2", "q3"]);
    expect(result.thinkingUsed).toBe(true);
    expect(result.effectiveSampling.max_tokens).toBe(8192);
    expect(result.questions.map((question) => question.correct)).toEqual([true, true, true, false]);
    expect(result.questions[0].extracted).toBe("a0");
    expect(result.questions[0].response).toContain("<think>");
    expect(result.questions[3].extracted).toBe("");
  });

  it("keeps the probe answers when the model does not reason", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const progress = collect();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(3),
      target: fake.target,
      batchSize: 2,
      onEvent: progress.onEvent,
    });
    await flush();
    fake.answer("q1");
    await flush();
    // The probe batch is the one barrier: q2 waits for the whole probe.
    expect(fake.started()).toEqual(["q0", "q1"]);
    fake.answer("q0");
    await flush();
    fake.answer("q2");
    const result = await run;
    expect(fake.started()).toEqual(["q0", "q1", "q2"]);
    expect(result.thinkingUsed).toBe(false);
    expect(progress.events.some((event) => event.type === "thinking_detected")).toBe(false);
    expect(result.correct).toBe(3);
  });

  it("strips reasoning before scoring even with thinking off", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({ benchmark, items: fakeItems(1), target: fake.target, thinking: "off" });
    await flush();
    fake.answer("q0", "<think>a9</think>a0");
    const result = await run;
    expect(fake.calls).toHaveLength(1);
    expect(result.correct).toBe(1);
  });

  it("starts with thinking on and no probe when asked", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(1),
      target: fake.target,
      thinking: "on",
      thinkingMaxTokens: 4096,
    });
    await flush();
    expect(fake.calls[0].request).toMatchObject({ thinking: true, maxTokens: 4096 });
    fake.answer("q0");
    expect((await run).thinkingUsed).toBe(true);
  });
});

describe("runBenchmark failures and sampling", () => {
  it("records a failed generation and goes on, leaving it out of the accuracy (no answer was judged)", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({ benchmark, items: fakeItems(3), target: fake.target, thinking: "off" });
    await flush();
    fake.fail("q0", "context length exceeded");
    await flush();
    fake.answer("q1");
    await flush();
    fake.answer("q2", "wrong");
    const result = await run;
    expect(result.status).toBe("completed");
    expect(result.questions[0]).toMatchObject({
      failure_type: "generation_error",
      error: "context length exceeded",
    });
    expect(result).toMatchObject({ scored: 2, unanswered: 1, correct: 1, accuracy: 0.5 });
  });

  it("fails a benchmark in which no generation succeeded, fewer than the errors-in-a-row limit", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({ benchmark, items: fakeItems(3), target: fake.target, thinking: "off" });
    for (const id of ["q0", "q1", "q2"]) {
      await flush();
      fake.fail(id, "Could not reach http://127.0.0.1:9/v1: fetch failed");
    }
    const result = await run;
    expect(result).toMatchObject({ status: "failed", scored: 0, unanswered: 3, accuracy: 0 });
    expect(result.error).toBe(
      "every generation failed (3 of 3); last error: Could not reach http://127.0.0.1:9/v1: fetch failed",
    );
  });

  it("fails the benchmark when generations keep failing", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(10),
      target: fake.target,
      batchSize: 2,
      thinking: "off",
      maxConsecutiveGenerationErrors: 3,
    });
    for (const id of ["q0", "q1", "q2"]) {
      await flush();
      fake.fail(id, "connection refused");
    }
    const result = await run;
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/3 generations failed in a row; last error: connection refused/);
    expect(fake.started()).toEqual(["q0", "q1", "q2", "q3"]);
    expect(fake.calls[3].aborted).toBe(true);
  });

  it("fails the benchmark when the scorer itself breaks, instead of counting answers wrong", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({
      benchmark,
      items: fakeItems(3),
      target: fake.target,
      batchSize: 2,
      thinking: "off",
    });
    await flush();
    fake.answer("q0", "crash");
    const result = await run;
    expect(result.status).toBe("failed");
    expect(result.error).toBe("scoring failed for q0: python3 not found");
    expect(fake.calls[1].aborted).toBe(true);
  });

  it("leaves a question the sandbox could not score (scoring_error) out of the accuracy", async () => {
    const { benchmark } = createFakeBenchmark();
    const score = benchmark.score;
    benchmark.score = async (item, response, context) => {
      const result = await score(item, response, context);
      return item.id === "q1"
        ? { ...result, correct: false, failure_type: "scoring_error", error: "sandbox: PermissionError" }
        : result;
    };
    const fake = createControlledTarget();
    const run = runBenchmark({ benchmark, items: fakeItems(3), target: fake.target, thinking: "off" });
    for (const id of ["q0", "q1", "q2"]) {
      await flush();
      fake.answer(id);
    }
    const result = await run;
    expect(result).toMatchObject({ status: "completed", scored: 2, unscored: 1, correct: 2, accuracy: 1 });
    expect(result.questions.map((question) => question.failure_type)).toEqual([null, "scoring_error", null]);
  });

  it("sends the profile's sampling and records the effective sampling", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const sampling = resolveSampling("model_settings", {
      temperature: 0.7,
      top_p: 0.9,
      repetition_penalty: 1.1,
    });
    const run = runBenchmark({
      benchmark,
      items: fakeItems(1),
      target: fake.target,
      thinking: "off",
      sampling,
    });
    await flush();
    expect(fake.calls[0].request.sampling).toEqual({ temperature: 0.7, topP: 0.9, repeatPenalty: 1.1 });
    fake.answer("q0");
    const result = await run;
    expect(result.samplingProfile).toBe("model_settings");
    expect(result.effectiveSampling).toEqual({
      temperature: 0.7,
      top_p: 0.9,
      repeat_penalty: 1.1,
      max_tokens: 64,
    });
  });

  it("defaults to greedy sampling with neutral penalties", async () => {
    const { benchmark } = createFakeBenchmark();
    const fake = createControlledTarget();
    const run = runBenchmark({ benchmark, items: fakeItems(1), target: fake.target, thinking: "off" });
    await flush();
    fake.answer("q0");
    const result = await run;
    expect(result.samplingProfile).toBe("deterministic");
    expect(result.effectiveSampling).toMatchObject({
      temperature: 0,
      presence_penalty: 0,
      frequency_penalty: 0,
      repeat_penalty: 1,
    });
  });
});

describe("runBenchmark timings", () => {
  it("reports scoring time that did not overlap generation", async () => {
    const { benchmark, scoreGates } = createFakeBenchmark({ holdScoring: true });
    const fake = createControlledTarget();
    let now = 0;
    const run = runBenchmark({
      benchmark,
      items: fakeItems(2),
      target: fake.target,
      thinking: "off",
      clock: () => now,
    });
    await flush();
    now = 1000;
    fake.answer("q0"); // scoring of q0 overlaps the generation of q1
    await flush();
    now = 3000;
    fake.answer("q1");
    await flush();
    now = 4000;
    scoreGates.get("q0")!.resolve();
    await flush();
    now = 4500;
    scoreGates.get("q1")!.resolve();
    const result = await run;
    // Scoring alone: 3000..4500.
    expect(result.timings).toEqual({ total_s: 4.5, generation_s: 3, scoring_s: 1.5 });
  });
});
