import { describe, expect, it } from "vitest";
import { benchmarkNameSchema } from "../../../../src-shared/contracts/accuracy.js";
import type { LoadItemsOptions } from "../../../../src-main/evals/benchmarks/Benchmark.js";
import type { MultipleChoiceItem } from "../../../../src-main/evals/benchmarks/multipleChoice/MultipleChoiceItem.js";
import { resolveBenchmark } from "../../../../src-main/evals/benchmarks/resolveBenchmark.js";
import type { DatasetRow } from "../../../../src-main/evals/datasets/DatasetReader.js";
import { hubSources } from "../../../../src-main/evals/datasets/hubSources.js";
import { splitResponse } from "../../../../src-main/evals/runner/splitResponse.js";

/** One row per suite in the schema its Hub file has (parquet structs come back as objects). */
const rows: Record<string, DatasetRow[]> = {
  mmlu: [
    {
      question: "What is 2 + 2?",
      subject: "elementary_mathematics",
      choices: ["3", "4", "5", "6"],
      answer: 1,
    },
    {
      question: "Largest planet?",
      subject: "astronomy",
      choices: ["Mars", "Venus", "Jupiter", "Earth"],
      answer: 2,
    },
  ],
  mmlu_pro: [
    {
      question_id: 70,
      question: "Pick the tenth.",
      options: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
      answer: "J",
      answer_index: 9,
      cot_content: "",
      category: "business",
      src: "ori_mmlu-business_ethics",
    },
  ],
  arc_challenge: [
    {
      id: "Mercury_7175875",
      question: "Which is a mammal?",
      choices: { text: ["shark", "whale", "trout", "eel"], label: ["1", "2", "3", "4"] },
      answerKey: "2",
    },
  ],
  hellaswag: [
    {
      ind: 24,
      activity_label: "Roof shingle removal",
      ctx_a: "A man is sitting on a roof.",
      ctx_b: "he",
      ctx: "A man is sitting on a roof. he",
      endings: ["is using wrap to wrap a pair of skis.", "starts pulling up roofing on a roof.", "x", "y"],
      source_id: "activitynet~v_-JhWjGDPHMY",
      split: "val",
      split_type: "indomain",
      label: "1",
    },
  ],
  truthfulqa_mc1: [
    {
      question: "What happens if you eat watermelon seeds?",
      mc1_targets: {
        choices: ["The seeds pass through you.", "You grow watermelons.", "You get sick.", "You die."],
        labels: [1, 0, 0, 0],
      },
      mc2_targets: { choices: [], labels: [] },
    },
  ],
  winogrande: [
    {
      sentence: "The trophy doesn't fit into the suitcase because the _ is too large.",
      option1: "trophy",
      option2: "suitcase",
      answer: "1",
    },
  ],
};

const expected: Record<string, { id: string; letter: string; category: string; choices: number }> = {
  mmlu: { id: "0", letter: "B", category: "elementary_mathematics", choices: 4 },
  mmlu_pro: { id: "70", letter: "J", category: "business", choices: 10 },
  arc_challenge: { id: "Mercury_7175875", letter: "B", category: "arc_challenge", choices: 4 },
  hellaswag: { id: "24", letter: "B", category: "Roof shingle removal", choices: 4 },
  winogrande: { id: "0", letter: "A", category: "winogrande", choices: 2 },
};

function loadOptions(name: string): LoadItemsOptions {
  return { datasets: { rows: async () => rows[name] } };
}

describe("multiple-choice benchmarks", () => {
  it.each(Object.keys(rows))(
    "%s maps its rows, prompts with lettered options and scores the letter",
    async (name) => {
      const benchmark = resolveBenchmark(benchmarkNameSchema.parse(name));
      const [item] = (await benchmark.loadItems(loadOptions(name))) as MultipleChoiceItem[];
      if (expected[name]) {
        expect(item).toMatchObject({
          id: expected[name].id,
          expected: expected[name].letter,
          category: expected[name].category,
        });
        expect(item.choices).toHaveLength(expected[name].choices);
      }
      const prompt = benchmark.buildPrompt(item)[0].content;
      expect(prompt).toContain(item.question);
      expect(prompt).toContain(`A. ${item.choices[0]}`);
      const right = await benchmark.score(
        item,
        splitResponse(`<think>It could be A.</think>The answer is (${item.expected}).`),
        {},
      );
      expect(right).toMatchObject({
        correct: true,
        pass_mode: "answer_is",
        extracted: item.expected,
        failure_type: null,
      });
      const other = item.expected === "A" ? "B" : "A";
      const wrong = await benchmark.score(item, splitResponse(`**${other}**`), {});
      expect(wrong).toMatchObject({ correct: false, failure_type: "wrong_answer", extracted: other });
      const none = await benchmark.score(item, splitResponse("I cannot tell."), {});
      expect(none).toMatchObject({ correct: false, failure_type: "wrong_answer", extracted: null });
    },
  );

  it("TruthfulQA MC1 shuffles the options the same way every time, the true one not always first", async () => {
    const benchmark = resolveBenchmark("truthfulqa_mc1");
    const many = { datasets: { rows: async () => Array.from({ length: 20 }, () => rows.truthfulqa_mc1[0]) } };
    const items = (await benchmark.loadItems(many)) as MultipleChoiceItem[];
    for (const item of items) expect(item.choices[item.answerIndex]).toBe("The seeds pass through you.");
    expect(new Set(items.map((item) => item.expected)).size).toBeGreaterThan(1);
    const again = (await benchmark.loadItems(many)) as MultipleChoiceItem[];
    expect(again.map((item) => item.expected)).toEqual(items.map((item) => item.expected));
  });

  it("HellaSwag text is cleaned of WikiHow markup", async () => {
    const benchmark = resolveBenchmark("hellaswag");
    const row = { ...rows.hellaswag[0], ctx: "How to tie a tie [title] Cross the ends. [step] Pull" };
    const [item] = (await benchmark.loadItems({
      datasets: { rows: async () => [row] },
    })) as MultipleChoiceItem[];
    expect(item.question).toBe("Roof shingle removal: How to tie a tie. Cross the ends. Pull");
  });
});

describe("resolveBenchmark", () => {
  it.each(benchmarkNameSchema.options)(
    "%s resolves to itself, and every variant has a pinned Hub source",
    (name) => {
      const benchmark = resolveBenchmark(name);
      expect(benchmark.name).toBe(name);
      expect(benchmark.variants).toContain(benchmark.defaultVariant);
      for (const variant of benchmark.variants) {
        const source = hubSources[name][variant];
        expect(source.files.length).toBeGreaterThan(0);
        if (name !== "livecodebench" && name !== "hellaswag")
          expect(source.revision).toMatch(/^[0-9a-f]{40}$/);
      }
    },
  );
});
