import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { accuracyResultSchema } from "../../../../src-shared/contracts/accuracy.js";
import { EvalJournal } from "../../../../src-main/evals/queue/EvalJournal.js";
import { createQueueFixture } from "./queueFixture.js";
import { flush } from "./fakes.js";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "perch-eval-journal-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("a crash (kill -9) mid-run", () => {
  it("leaves the answered questions as a cancelled result and every run it held listed, after a restart", async () => {
    const dir = path.join(work, "journal");
    // The process that "crashes": three questions answered, one in flight, one run waiting.
    const before = createQueueFixture({ count: 5, journal: new EvalJournal(dir) });
    const running = await before.add({ model_id: "m1", benchmarks: ["gsm8k", "mmlu"], thinking: "off" });
    const waiting = await before.add({ model_id: "m2", benchmarks: ["mmlu"], thinking: "off" });
    for (const [id, answer] of [
      ["gsm8k-q0", "a0"],
      ["gsm8k-q1", "wrong"],
      ["gsm8k-q2", "a2"],
    ]) {
      await flush();
      before.fake.answer(id, answer);
      await flush();
    }
    await before.queue.list(); // the process dies here: no close, no cancel, nothing saved
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(before.results.results).toEqual([]);
    // A cut last line, as a kill mid-append leaves.
    const journal = fs.readdirSync(dir).find((name) => name.endsWith(".jsonl"))!;
    fs.appendFileSync(path.join(dir, journal), '{"index":3,"question":{"id":"gsm8k-q');

    // The restart: a new queue over the same folder records what the first left.
    const restarted = new EvalJournal(dir);
    const after = createQueueFixture({ count: 5, journal: restarted });
    await after.queue.recordInterrupted(restarted.takeInterrupted());
    expect(after.results.results).toHaveLength(1);
    const [partial] = after.results.results;
    expect(accuracyResultSchema.parse(partial)).toEqual(partial);
    expect(partial).toMatchObject({ model_id: "m1", benchmark: "gsm8k", status: "cancelled", total: 3 });
    expect(partial.accuracy).toBeCloseTo(2 / 3);
    expect(partial.questions.map((question) => question.id)).toEqual(["gsm8k-q0", "gsm8k-q1", "gsm8k-q2"]);

    const finished = after.queue.list().finished;
    const byId = new Map(finished.map((run) => [run.run_id, run]));
    expect(byId.get(running.run_id)).toMatchObject({
      state: "cancelled",
      result_ids: [partial.result_id],
      error: { code: "cancelled", message: expect.stringContaining("Perch stopped during the run") },
    });
    expect(byId.get(waiting.run_id)).toMatchObject({
      state: "cancelled",
      result_ids: [],
      error: { message: expect.stringContaining("Perch stopped before this run started") },
    });
    // Taken once: a second restart finds nothing left.
    expect(new EvalJournal(dir).takeInterrupted().runs).toEqual([]);
  });

  it("a run that ends normally leaves no journal behind", async () => {
    const dir = path.join(work, "clean");
    const journal = new EvalJournal(dir);
    const { fake, add, queue } = createQueueFixture({ count: 2, journal });
    await add({ model_id: "m1", benchmarks: ["gsm8k"], thinking: "off" });
    await flush();
    fake.answer("gsm8k-q0", "a0");
    await flush();
    fake.answer("gsm8k-q1", "a1");
    await queue.idle();
    await journal.flush();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
