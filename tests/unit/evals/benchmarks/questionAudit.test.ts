import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  maxAttemptOutputLength,
  maxQuestionOutputLength,
  questionResultSchema,
} from "../../../../src-shared/contracts/accuracy.js";
import { liveCodeBenchBenchmark } from "../../../../src-main/evals/benchmarks/livecodebench/liveCodeBenchBenchmark.js";
import { mbppBenchmark } from "../../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import { toMbppItem } from "../../../../src-main/evals/benchmarks/mbpp/MbppItem.js";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { InlineSandbox } from "../../../../src-main/evals/scoring/InlineSandbox.js";
import { splitResponse } from "../../../../src-main/evals/runner/splitResponse.js";
import { repoRoot } from "../../../helpers/fixtureDatasets.js";

let sandbox: InlineSandbox;
beforeAll(async () => {
  sandbox = await InlineSandbox.create({ processes: 2 });
});
afterAll(() => sandbox.close());

const item = toMbppItem({
  task_id: 9101,
  text: "Write a function to find the area of a circle.",
  code: "import math\ndef circle_area(r):\n    return math.pi * r * r",
  test_list: ["assert circle_area(2) == 12.566370614359172", "assert circle_area(0) == 0"],
  test_setup_code: "",
});
const score = (response: string) => mbppBenchmark.score(item, splitResponse(response), { sandbox });
const fenced = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

describe("a scored code question can be audited", () => {
  it("keeps every repair tried and the failing check's whole traceback", async () => {
    const result = await score(fenced("def circle_area(r):\n    return undefined_name * r"));
    expect(result).toMatchObject({ correct: false, failure_type: "runtime_error" });
    // The one-line error names the exception; the test output holds the traceback leading to it.
    expect(result.error).toContain("NameError");
    expect(result.test_output).toContain("Traceback (most recent call last)");
    expect(result.test_output).toContain("in circle_area");
    expect(result.test_output).not.toContain("__perch_tests_started__");
    expect(result.attempts!.length).toBeGreaterThan(0);
    for (const attempt of result.attempts!) {
      expect(attempt.outcome).toBe("runtime_error");
      expect(attempt.output).toContain("NameError");
    }
    expect(questionResultSchema.parse(result)).toEqual(result);
  });

  it("records the failed repairs before the one that passed", async () => {
    const result = await score(fenced("def circle_area(r):\n    return 3.14159265358979 * r * r"));
    expect(result).toMatchObject({
      correct: true,
      pass_mode: "block_1:numeric_tolerance",
      test_output: null,
    });
    const outcomes = result.attempts!.map((attempt) => [attempt.pass_mode, attempt.outcome]);
    expect(outcomes.at(-1)).toEqual(["block_1:numeric_tolerance", "passed"]);
    expect(outcomes.slice(0, -1).map(([, outcome]) => outcome)).toContain("wrong_answer");
    expect(result.attempts!.at(-1)!.error).toBeNull();
  });

  it("cuts a flood of output in the middle, with a marker, keeping the exception at the end", async () => {
    const code = "def circle_area(r):\n    print('x' * 50000)\n    raise ValueError('the real reason')";
    const result = await score(fenced(code));
    expect(result.test_output!.length).toBeLessThanOrEqual(maxQuestionOutputLength);
    expect(result.test_output).toMatch(/… truncated \d+ characters …/);
    expect(result.test_output).toContain("ValueError: the real reason");
    for (const attempt of result.attempts!) {
      expect(attempt.output.length).toBeLessThanOrEqual(maxAttemptOutputLength);
      expect(attempt.output).toContain("ValueError: the real reason");
    }
    expect(questionResultSchema.safeParse(result).success).toBe(true);
  });

  it("LiveCodeBench keeps the failing test's expected and actual output", async () => {
    const fixture = path.join(repoRoot, "tests/unit/evals/fixtures/livecodebench.jsonl");
    const [stdinProblem] = await liveCodeBenchBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixture),
    });
    const result = await liveCodeBenchBenchmark.score(
      stdinProblem,
      splitResponse(fenced("a, b = map(int, input().split())\nprint(a - b if a > 5 else a + b)")),
      { sandbox, checkTimeoutS: 2 },
    );
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer" });
    expect(result.test_output).toContain("expected:\n6");
    expect(result.test_output).toContain("14");
    expect(result.attempts!.map((attempt) => attempt.outcome)).toContain("wrong_answer");
  });

  it("a result saved before these fields existed still loads", () => {
    const old = {
      id: "HumanEval/0",
      correct: false,
      expected: "tests",
      extracted: "def f(): pass",
      response: "def f(): pass",
      pass_mode: null,
      failure_type: "wrong_answer",
      error: "AssertionError",
      time_s: 1,
      category: "",
    };
    expect(questionResultSchema.parse(old)).toEqual(old);
  });
});
