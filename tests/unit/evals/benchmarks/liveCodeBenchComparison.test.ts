import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareOutput } from "../../../../src-main/evals/benchmarks/livecodebench/compareOutput.js";
import { liveCodeBenchBenchmark } from "../../../../src-main/evals/benchmarks/livecodebench/liveCodeBenchBenchmark.js";
import {
  toLiveCodeBenchItem,
  type LiveCodeBenchItem,
} from "../../../../src-main/evals/benchmarks/livecodebench/LiveCodeBenchItem.js";
import { SandboxPool } from "../../../../src-main/evals/scoring/SandboxPool.js";
import { splitResponse } from "../../../../src-main/evals/runner/splitResponse.js";

// The comparison rules of LiveCodeBench's own grader (lcb_runner/evaluation/testing_util.py):
// stdin problems compare stripped lines as text, else as lists of `Decimal`; functional problems
// compare with Python `==` after a tuple result becomes a list.

let pool: SandboxPool;
beforeAll(async () => {
  pool = await SandboxPool.create({ threads: 2 });
});
afterAll(() => pool.close());

function problem(
  id: string,
  test: { input: string; output: string },
  functionName?: string,
): LiveCodeBenchItem {
  const functional = functionName !== undefined;
  return toLiveCodeBenchItem({
    question_id: id,
    question_title: id,
    question_content: "x",
    platform: functional ? "leetcode" : "atcoder",
    contest_date: "2024-01-01T00:00:00",
    starter_code: functional ? `class Solution:\n    def ${functionName}(self, n):\n        ` : "",
    difficulty: "easy",
    public_test_cases: JSON.stringify([{ ...test, testtype: functional ? "functional" : "stdin" }]),
    private_test_cases: "[]",
    metadata: JSON.stringify(functional ? { func_name: functionName } : {}),
  });
}

const fenced = (code: string) => `\`\`\`python\n${code}\n\`\`\`\n`;
const score = async (item: LiveCodeBenchItem, code: string) =>
  liveCodeBenchBenchmark.score(item, splitResponse(fenced(code)), { sandbox: pool, checkTimeoutS: 5 });

describe("LiveCodeBench stdin output comparison", () => {
  it("compares integers exactly, however large", async () => {
    const big = problem("big", { input: "1000000000000000000\n", output: "1000000000000000001\n" });
    expect((await score(big, "n = int(input())\nprint(n + 1)")).correct).toBe(true);
    for (const wrong of ["print(n)", "print(n + 2)"]) {
      const result = await score(big, `n = int(input())\n${wrong}`);
      expect(result, wrong).toMatchObject({ correct: false, failure_type: "wrong_answer" });
    }
  });

  it.each([
    ["1000000000000000000", "1000000000000000001", false],
    ["9007199254740993", "9007199254740992", false],
    ["0.1", "0.10000000000000001", false],
    ["3.00000004", "3", false],
    ["1.0", "1", true],
    ["0.50", ".5", true],
    ["-0", "0", true],
    ["1e3", "1000", true],
    ["1_000", "1000", true],
    ["inf", "Infinity", true],
    ["nan", "nan", true], // equal as text
    ["nan ", " NaN", false], // NaN equals no number
    ["1  2", "1 2", true],
    ["Yes 1.0", "Yes 1", false], // a line with a word matches only as text
    ["Yes", "YES", false],
  ])("%j against expected %j: equal %s", (got, want, equal) => {
    expect(compareOutput(got, want) === null).toBe(equal);
  });

  it("strips the output and its lines as Python does, and counts the lines", () => {
    expect(compareOutput("\n\n1 2\r\n3 4  \n\n", "1 2\n3 4")).toBeNull();
    expect(compareOutput("1 2\n\n3 4", "1 2\n3 4")).toBe('line 2: expected "3 4", got ""');
    expect(compareOutput("1 2 3 4", "1 2\n3 4")).not.toBeNull();
    // U+FEFF is not whitespace to Python.
    expect(compareOutput("\ufeff1", "1")).not.toBeNull();
  });
});

describe("LiveCodeBench functional comparison", () => {
  const half = problem("half", { input: "7", output: "3.5" }, "half");
  const third = problem("third", { input: "7", output: "3" }, "third");
  const method = (name: string, body: string) =>
    `class Solution:\n    def ${name}(self, n: int):\n        ${body}`;

  it("passes a result equal under Python == (3.0 == 3)", async () => {
    expect((await score(half, method("half", "return n / 2"))).correct).toBe(true);
    expect((await score(third, method("third", "return n // 2"))).correct).toBe(true);
    expect((await score(third, method("third", "return 3.0"))).correct).toBe(true);
  });

  it.each([
    ["half", "return str(n / 2)"],
    ["half", "return [n / 2]"],
    ["third", "return n / 2.3333333"],
    ["third", "return '3'"],
  ])("fails %s: %s", async (name, body) => {
    const result = await score(name === "half" ? half : third, method(name, body));
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer" });
  });
});
