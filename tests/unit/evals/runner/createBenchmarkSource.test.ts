import { afterAll, describe, expect, it } from "vitest";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { createBenchmarkSource } from "../../../../src-main/evals/queue/createBenchmarkSource.js";
import { SandboxPool } from "../../../../src-main/evals/scoring/SandboxPool.js";
import type { EvalTarget } from "../../../../src-main/evals/runner/EvalTarget.js";
import { toEffective } from "../../../../src-main/evals/runner/resolveSampling.js";
import { runBenchmark } from "../../../../src-main/evals/runner/runBenchmark.js";
import { fixtureDataset } from "../../../helpers/fixtureDatasets.js";
import type { HumanEvalItem } from "../../../../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";

describe("createBenchmarkSource", () => {
  let pool: Promise<SandboxPool> | undefined;
  afterAll(async () => {
    if (pool) await (await pool).close();
  });

  it("rejects a variant the benchmark does not have", async () => {
    const source = createBenchmarkSource({
      datasets: new LocalFileDatasetReader(fixtureDataset("gsm8k-test.jsonl")),
    });
    await expect(
      source.open("gsm8k", { sampleSize: 1, variant: "five_shot", signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("runs HumanEval through the real sandbox pool with refill", async () => {
    const source = createBenchmarkSource({
      datasets: new LocalFileDatasetReader(fixtureDataset("HumanEval.jsonl.gz")),
      sandbox: () => (pool ??= SandboxPool.create({ threads: 2 })),
    });
    const opened = await source.open("humaneval", { sampleSize: 6, signal: new AbortController().signal });
    expect(opened.variant).toBe("test");
    const items = opened.items as HumanEvalItem[];
    const byPrompt = new Map(items.map((item) => [item.prompt, item]));
    const target: EvalTarget = {
      modelId: "canonical",
      description: { kind: "local", model_id: "canonical" },
      async generate(request) {
        const item = [...byPrompt.values()].find((candidate) =>
          request.messages[0].content.includes(candidate.prompt),
        )!;
        // Reasoning, then the full function in a fenced block with prose around it.
        return {
          text: `<think>easy</think>Here it is:\n\`\`\`python\n${item.prompt}${item.canonicalSolution}\`\`\`\nDone.`,
          finishReason: "stop",
        };
      },
      effectiveSampling: toEffective,
    };
    const result = await runBenchmark({
      benchmark: opened.benchmark,
      items: opened.items,
      sandbox: opened.sandbox,
      target,
      batchSize: 4,
    });
    expect(result.status).toBe("completed");
    expect(result.thinkingUsed).toBe(true);
    expect(result.questions.map((question) => question.id)).toEqual(items.map((item) => item.id));
    expect(result.questions.map((question) => [question.correct, question.failure_type])).toEqual(
      items.map(() => [true, null]),
    );
    expect(result.questions.every((question) => question.pass_mode !== null)).toBe(true);
  });
});
