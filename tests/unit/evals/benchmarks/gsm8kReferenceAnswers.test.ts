import { beforeAll, describe, expect, it } from "vitest";
import { gsm8kBenchmark } from "../../../../src-main/evals/benchmarks/gsm8k/gsm8kBenchmark.js";
import type { Gsm8kItem } from "../../../../src-main/evals/benchmarks/gsm8k/Gsm8kItem.js";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { fixtureDataset } from "../../../helpers/fixtureDatasets.js";
import { splitResponse } from "../../../../src-main/evals/runner/splitResponse.js";

let items: Gsm8kItem[];

beforeAll(async () => {
  items = await gsm8kBenchmark.loadItems({
    datasets: new LocalFileDatasetReader(fixtureDataset("gsm8k-test.jsonl")),
  });
});

/** The reference solution with its `#### N` line rewritten as a model might end. */
const endings: [string, (answer: string) => string, string][] = [
  ["as written (#### N)", (answer) => answer, "hashes"],
  ["'The answer is $N.'", (answer) => answer.replace(/####\s*(.+)$/, "The answer is $$$1."), "answer_is"],
  ["\\boxed{N}", (answer) => answer.replace(/####\s*(.+)$/, "So the result is \\boxed{$1}."), "boxed"],
  ["after a think block", (answer) => `<think>maybe 12? or 7</think>\n${answer}`, "hashes"],
];

describe("GSM8K extraction on the 1319 reference solutions", () => {
  it("reads 1319 test items with ids = 0-based row numbers", () => {
    expect(items).toHaveLength(1319);
    expect(items[0].id).toBe("0");
    expect(items[1318].id).toBe("1318");
  });

  it.each(endings)("recovers every reference answer %s", async (_name, rewrite, rule) => {
    const results = await Promise.all(
      items.map((item) => gsm8kBenchmark.score(item, splitResponse(rewrite(item.solution)), {})),
    );
    const wrong = results.filter((result) => !result.correct).map((result) => result.id);
    expect(wrong).toEqual([]);
    expect(new Set(results.map((result) => result.pass_mode))).toEqual(new Set([rule]));
  });

  it("a wrong number is a wrong_answer naming both", async () => {
    const result = await gsm8kBenchmark.score(items[0], splitResponse("#### 123456"), { timeS: 1.5 });
    expect(result).toMatchObject({
      correct: false,
      failure_type: "wrong_answer",
      extracted: "123456",
      time_s: 1.5,
    });
    expect(result.error).toBe(`answered 123456, expected ${items[0].expected}`);
  });

  it("builds zero-shot and few-shot prompts", async () => {
    const fewShot = await gsm8kBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixtureDataset("gsm8k-test.jsonl")),
      variant: "few_shot",
      limit: 3,
    });
    expect(gsm8kBenchmark.buildPrompt(items[0])).toHaveLength(2);
    expect(gsm8kBenchmark.buildPrompt(fewShot[0])).toHaveLength(2 + 16);
  });
});
