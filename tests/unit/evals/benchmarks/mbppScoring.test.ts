import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mbppBenchmark } from "../../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import { toMbppItem } from "../../../../src-main/evals/benchmarks/mbpp/MbppItem.js";
import { InlineSandbox } from "../../../../src-main/evals/scoring/InlineSandbox.js";
import { splitResponse } from "../../../../src-main/evals/runner/splitResponse.js";

let sandbox: InlineSandbox;
beforeAll(async () => {
  sandbox = await InlineSandbox.create({ processes: 2 });
});
afterAll(() => sandbox.close());

const item = toMbppItem({
  task_id: 9001,
  text: "Write a function to find the area of a circle.",
  code: "import math\ndef circle_area(r):\n    return math.pi * r * r",
  test_list: ["assert circle_area(2) == 12.566370614359172", "assert circle_area(0) == 0"],
  test_setup_code: "",
});
const score = (response: string) => mbppBenchmark.score(item, splitResponse(response), { sandbox });

describe("MBPP scoring", () => {
  it("prompts with the task and its first test only", () => {
    const prompt = mbppBenchmark.buildPrompt(item)[0].content;
    expect(prompt).toContain(item.text);
    expect(prompt).toContain(item.tests[0]);
    expect(prompt).not.toContain(item.tests[1]);
  });

  it("tolerates tiny float drift with numeric_tolerance", async () => {
    const drift = "```python\ndef circle_area(r):\n    return 3.14159265358979 * r * r\n```";
    expect(await score(drift)).toMatchObject({ correct: true, pass_mode: "block_1:numeric_tolerance" });
  });

  it("still fails a wrong float answer", async () => {
    const wrong = "```python\ndef circle_area(r):\n    return 3.14 * r * r\n```";
    const result = await score(wrong);
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer" });
  });

  it("does not loosen comparisons without a float operand", async () => {
    const strings = toMbppItem({
      task_id: 9002,
      text: "Return the count as a string.",
      code: "def count(x):\n    return str(len(x))",
      test_list: ["assert count([1, 2]) == '2'"],
      test_setup_code: "",
    });
    const result = await mbppBenchmark.score(strings, splitResponse("def count(x):\n    return 2"), {
      sandbox,
    });
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer" });
  });

  it("retries with the setup code after the solution", async () => {
    const withSetup = toMbppItem({
      task_id: 9003,
      text: "Use the shared table.",
      code: "",
      test_list: ["assert lookup('a') == 1"],
      test_setup_code: "TABLE = {'a': 1}",
    });
    // The response redefines TABLE wrongly; only the setup placed after it makes the test pass.
    const response = "TABLE = {}\ndef lookup(key):\n    return TABLE[key]";
    expect(await mbppBenchmark.score(withSetup, splitResponse(response), { sandbox })).toMatchObject({
      correct: true,
      pass_mode: "response:setup_after_code",
    });
  });
});
