import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuestionResult } from "../../../src-shared/contracts/accuracy.js";
import type { Benchmark, BenchmarkItem } from "../../../src-main/evals/benchmarks/Benchmark.js";
import { humanEvalBenchmark } from "../../../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import { liveCodeBenchBenchmark } from "../../../src-main/evals/benchmarks/livecodebench/liveCodeBenchBenchmark.js";
import { mbppBenchmark } from "../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import { LocalFileDatasetReader } from "../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { SandboxPool } from "../../../src-main/evals/scoring/SandboxPool.js";
import {
  codeResponseShapes,
  fence,
  noCodeResponses,
  type ShapeInput,
} from "../../corpus/codeResponseShapes.js";
import {
  humanEvalBrokenBody,
  humanEvalShapeInput,
  humanEvalWrongBody,
  liveCodeBenchShapeInput,
  mbppBrokenCode,
  mbppShapeInput,
  mbppWrongCode,
} from "../../corpus/codeShapeCases.js";
import { fixtureDataset } from "../../helpers/fixtureDatasets.js";
import { splitResponse } from "../../../src-main/evals/runner/splitResponse.js";

/*
 * Full sandboxed scoring of every response shape on a fixed sample (the whole canonical sets run
 * in `npm run bench -- evals`; candidate selection for all of them is a unit test). Positives must
 * pass; a wrong answer must fail in every shape with the failure type it gets when run bare with
 * the tests (mostly `wrong_answer`); a syntax error must be `syntax_error`; no code `no_code`.
 */
let pool: SandboxPool;
beforeAll(async () => {
  pool = await SandboxPool.create();
});
afterAll(() => pool.close());

interface Case<Item> {
  item: Item;
  right: ShapeInput;
  wrong: ShapeInput;
  /** What the wrong code gets when run as-is with the tests: its right failure type. */
  wrongType: () => Promise<string>;
  broken: ShapeInput;
}

async function scoreEveryShape<Item extends BenchmarkItem>(benchmark: Benchmark<Item>, cases: Case<Item>[]) {
  const failures: string[] = [];
  const score = (item: Item, response: string) =>
    benchmark.score(item, splitResponse(response), { sandbox: pool });
  const expectThat = (label: string, result: QuestionResult, ok: boolean) => {
    if (!ok)
      failures.push(
        `${label}: ${result.correct ? result.pass_mode : `${result.failure_type} ${result.error}`}`,
      );
  };
  await Promise.all(
    cases.map(async ({ item, right, wrong, wrongType, broken }) => {
      const wrongExpected = await wrongType();
      for (const shape of codeResponseShapes) {
        const [pass, fail, syntax] = await Promise.all([
          score(item, shape.dress(right)),
          score(item, shape.dress(wrong)),
          score(item, shape.dress(broken)),
        ]);
        expectThat(`${item.id} ${shape.name} right`, pass, pass.correct);
        expectThat(
          `${item.id} ${shape.name} wrong`,
          fail,
          !fail.correct && fail.failure_type === wrongExpected,
        );
        expectThat(`${item.id} ${shape.name} broken`, syntax, syntax.failure_type === "syntax_error");
      }
      for (const { name, response } of noCodeResponses) {
        const result = await score(item, response);
        expectThat(`${item.id} ${name}`, result, result.failure_type === "no_code");
      }
    }),
  );
  return failures;
}

const bare = async (code: string) => (await pool.run({ code })).outcome;

describe("every response shape through the sandboxed scorer (sample)", () => {
  it("HumanEval", async () => {
    const all = await humanEvalBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixtureDataset("HumanEval.jsonl")),
    });
    const ids = [
      "HumanEval/0",
      "HumanEval/10",
      "HumanEval/32",
      "HumanEval/38",
      "HumanEval/53",
      "HumanEval/163",
    ];
    const cases = all
      .filter((item) => ids.includes(item.id))
      .map((item) => ({
        item,
        right: humanEvalShapeInput(item),
        wrong: humanEvalShapeInput(item, humanEvalWrongBody),
        wrongType: () =>
          bare(`${item.prompt}${humanEvalWrongBody}\n${item.test}\ncheck(${item.entryPoint})\n`),
        broken: humanEvalShapeInput(item, humanEvalBrokenBody(item)),
      }));
    expect(cases).toHaveLength(ids.length);
    expect(await scoreEveryShape(humanEvalBenchmark, cases)).toEqual([]);
  }, 600_000);

  // 367 and 927 need their setup after the code; 126 defines `sum` (a builtin's name); 181 and 466
  // define a helper whose name starts with the function's (`common_prefix_util`).
  it("MBPP, full and sanitized (setup after the code, builtin-named and prefix-named functions)", async () => {
    for (const [file, variant, ids] of [
      ["mbpp.jsonl", "full", ["2", "126", "181", "367", "466", "601", "927"]],
      ["sanitized-mbpp.json", "sanitized", ["82", "427"]],
    ] as const) {
      const all = await mbppBenchmark.loadItems({
        datasets: new LocalFileDatasetReader(fixtureDataset(file), { wholeFile: true }),
        variant,
      });
      const cases = all
        .filter((item) => (ids as readonly string[]).includes(item.id))
        .map((item) => ({
          item,
          right: mbppShapeInput(item),
          wrong: mbppShapeInput(item, mbppWrongCode(item)),
          wrongType: () => bare(`${mbppWrongCode(item)}\n${item.setup}\n${item.tests.join("\n")}\n`),
          broken: mbppShapeInput(item, mbppBrokenCode(item)),
        }));
      expect(cases).toHaveLength(ids.length);
      expect(await scoreEveryShape(mbppBenchmark, cases)).toEqual([]);
    }
  }, 600_000);

  it("LiveCodeBench shipped samples (stdin and functional)", async () => {
    const items = await liveCodeBenchBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(
        new URL("../../unit/evals/fixtures/livecodebench.jsonl", import.meta.url).pathname,
      ),
    });
    const cases = items.map((item) => {
      const wrong = liveCodeBenchShapeInput(item, "wrong");
      return {
        item,
        right: liveCodeBenchShapeInput(item, "right"),
        wrong,
        wrongType: async () => "wrong_answer",
        broken: {
          ...liveCodeBenchShapeInput(item, "right"),
          code: `${liveCodeBenchShapeInput(item, "right").code}\nresult = (`,
        },
      };
    });
    expect(await scoreEveryShape(liveCodeBenchBenchmark, cases)).toEqual([]);
  }, 600_000);

  it("an answer with a right and a wrong version fails, whichever it puts first; two right versions pass", async () => {
    const humanEval = await humanEvalBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixtureDataset("HumanEval.jsonl")),
    });
    const mbpp = await mbppBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixtureDataset("sanitized-mbpp.json"), { wholeFile: true }),
      variant: "sanitized",
    });
    const liveCodeBench = await liveCodeBenchBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(
        new URL("../../unit/evals/fixtures/livecodebench.jsonl", import.meta.url).pathname,
      ),
    });
    const cases: {
      benchmark: Benchmark<BenchmarkItem>;
      item: BenchmarkItem;
      right: string;
      wrong: string;
    }[] = [
      ...humanEval
        .filter((item) => ["HumanEval/0", "HumanEval/53"].includes(item.id))
        .map((item) => ({
          benchmark: humanEvalBenchmark as Benchmark<BenchmarkItem>,
          item,
          right: humanEvalShapeInput(item).code,
          wrong: humanEvalShapeInput(item, humanEvalWrongBody).code,
        })),
      ...mbpp
        .filter((item) => item.id === "82")
        .map((item) => ({
          benchmark: mbppBenchmark as Benchmark<BenchmarkItem>,
          item,
          right: mbppShapeInput(item).code,
          wrong: mbppShapeInput(item, mbppWrongCode(item)).code,
        })),
      ...liveCodeBench.map((item) => ({
        benchmark: liveCodeBenchBenchmark as Benchmark<BenchmarkItem>,
        item,
        right: liveCodeBenchShapeInput(item, "right").code,
        wrong: liveCodeBenchShapeInput(item, "wrong").code,
      })),
    ];
    expect(cases).toHaveLength(5);
    const outcomes: string[] = [];
    for (const { benchmark, item, right, wrong } of cases) {
      const score = async (label: string, response: string, expected: boolean) => {
        const result = await benchmark.score(item, splitResponse(response), { sandbox: pool });
        if (result.correct !== expected)
          outcomes.push(`${item.id} ${label}: ${result.pass_mode ?? result.error}`);
        return result;
      };
      const rightFirst = await score(
        "right then wrong",
        `First attempt:\n\n${fence(right)}\n\nActually, a simpler final version:\n\n${fence(wrong)}\n\nUse the second one.`,
        false,
      );
      if (!rightFirst.correct)
        expect(rightFirst.error).toMatch(/^block_2 defines the solution differently from block_1/);
      await score(
        "wrong then right",
        `Final answer:\n\n${fence(wrong)}\n\nAlternative (not recommended):\n\n${fence(right)}`,
        false,
      );
      await score(
        "two right versions",
        `Here it is:\n\n${fence(right)}\n\nThe same, commented:\n\n${fence(`# the same logic\n${right}`)}`,
        true,
      );
    }
    expect(outcomes).toEqual([]);
  }, 600_000);
});
