import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveCodeBenchBenchmark } from "../../../../src-main/evals/benchmarks/livecodebench/liveCodeBenchBenchmark.js";
import type { LiveCodeBenchItem } from "../../../../src-main/evals/benchmarks/livecodebench/LiveCodeBenchItem.js";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { SandboxPool } from "../../../../src-main/evals/scoring/SandboxPool.js";
import { repoRoot } from "../../../helpers/fixtureDatasets.js";
import { splitResponse } from "../../../../src-main/evals/runner/splitResponse.js";

const fixture = path.join(repoRoot, "tests/unit/evals/fixtures/livecodebench.jsonl");
let pool: SandboxPool;
let stdinProblem: LiveCodeBenchItem;
let functionalProblem: LiveCodeBenchItem;

beforeAll(async () => {
  pool = await SandboxPool.create({ threads: 2 });
  const items = await liveCodeBenchBenchmark.loadItems({ datasets: new LocalFileDatasetReader(fixture) });
  [stdinProblem, functionalProblem] = items;
});
afterAll(() => pool.close());

const fenced = (code: string) => `Here is my solution.\n\n\`\`\`python\n${code}\n\`\`\`\n`;
const score = (item: LiveCodeBenchItem, response: string) =>
  liveCodeBenchBenchmark.score(item, splitResponse(response), { sandbox: pool, checkTimeoutS: 2 });

describe("LiveCodeBench stdin/stdout problems", () => {
  it("reads the row schema: public tests parsed, private ones kept encoded, difficulty as category", () => {
    expect(stdinProblem).toMatchObject({
      id: "abc999_a",
      category: "easy",
      functionName: null,
      starterCode: "",
    });
    expect(stdinProblem.publicTests).toHaveLength(2);
    expect(stdinProblem.privateTests).toMatch(/^eJ/);
    const prompt = liveCodeBenchBenchmark.buildPrompt(stdinProblem).at(-1)!.content;
    expect(prompt).toContain("standard input");
  });

  it("passes public and private tests (the private ones decoded from base64/zlib/pickle)", async () => {
    const result = await score(stdinProblem, fenced("a, b = map(int, input().split())\nprint(a + b)"));
    expect(result).toMatchObject({ correct: true, failure_type: null, error: null });
  });

  it("leaves a question whose private tests cannot be read unscored, not failed by the model", async () => {
    const right = fenced("a, b = map(int, input().split())\nprint(a + b)");
    const unreadable = await score({ ...stdinProblem, privateTests: "!!!not-base64-or-json" }, right);
    expect(unreadable).toMatchObject({ correct: false, failure_type: "scoring_error" });
    expect(unreadable.error).toContain("could not decode the private tests");
    // Decoded, but not tests: the same, for this question only (it once threw out of the run).
    const shapeless = await score(
      { ...stdinProblem, privateTests: JSON.stringify([{ input: "1 2", output: "3", testtype: "weird" }]) },
      right,
    );
    expect(shapeless).toMatchObject({ correct: false, failure_type: "scoring_error" });
    expect(shapeless.error).toContain("not in LiveCodeBench's shape");
  });

  it("accepts a program that ends with sys.exit(0) and reads sys.stdin directly", async () => {
    const code = "import sys\nprint(sum(map(int, sys.stdin.read().split())))\nsys.exit(0)";
    expect((await score(stdinProblem, fenced(code))).correct).toBe(true);
  });

  it("reports the first differing output line of the first failing test", async () => {
    const result = await score(
      stdinProblem,
      fenced("a, b = map(int, input().split())\nprint(a - b if a > 5 else a + b)"),
    );
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer" });
    expect(result.error).toBe('test 2/4: line 1: expected "6", got "14"');
  });

  it("fails on a private test the public ones do not catch", async () => {
    const code = "a, b = map(int, input().split())\nprint(min(a + b, 10**6))";
    const result = await score(stdinProblem, fenced(code));
    expect(result.error).toMatch(/^test 3\/4: line 1: expected "2000000000", got "1000000"/);
  });

  it("types syntax errors, crashes, timeouts and missing code", async () => {
    expect((await score(stdinProblem, fenced("print(1 +"))).failure_type).toBe("syntax_error");
    const crash = await score(stdinProblem, fenced("print(undefined_name)"));
    expect(crash).toMatchObject({ failure_type: "runtime_error" });
    expect(crash.error).toContain("NameError");
    expect((await score(stdinProblem, fenced("while True:\n    pass"))).failure_type).toBe("timeout");
    expect((await score(stdinProblem, "I don't know how to solve this.")).failure_type).toBe("no_code");
  });
});

describe("LiveCodeBench functional (LeetCode) problems", () => {
  it("reads the method name from metadata and prompts with the starter code", () => {
    expect(functionalProblem).toMatchObject({ id: "1", functionName: "twoSum", category: "medium" });
    expect(liveCodeBenchBenchmark.buildPrompt(functionalProblem).at(-1)!.content).toContain(
      "class Solution:",
    );
  });

  const solution = [
    "class Solution:",
    "    def twoSum(self, nums: List[int], target: int) -> List[int]:",
    "        seen = {}",
    "        for i, x in enumerate(nums):",
    "            if target - x in seen:",
    "                return [seen[target - x], i]",
    "            seen[x] = i",
  ].join("\n");

  it("calls the method on Solution() with the parsed inputs (typing names available)", async () => {
    expect(await score(functionalProblem, fenced(solution))).toMatchObject({
      correct: true,
      pass_mode: "block_1:as_is",
    });
  });

  it("does not run the solution's __main__ block, and compares a tuple result as a list", async () => {
    const code = `${solution.replace("return [seen[target - x], i]", "return (seen[target - x], i)")}\n\nif __name__ == "__main__":\n    print(Solution().twoSum(list(map(int, input().split())), int(input())))`;
    expect((await score(functionalProblem, fenced(code))).correct).toBe(true);
  });

  it("accepts a top-level function when there is no Solution class", async () => {
    const code =
      "def twoSum(nums, target):\n    return next([i, j] for i in range(len(nums)) for j in range(i + 1, len(nums)) if nums[i] + nums[j] == target)";
    expect((await score(functionalProblem, fenced(code))).correct).toBe(true);
  });

  it("a wrong result is a wrong_answer with expected and actual", async () => {
    const result = await score(
      functionalProblem,
      fenced(solution.replace("[seen[target - x], i]", "[i, seen[target - x]]")),
    );
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer" });
    expect(result.error).toBe("test 1/3: AssertionError: expected [0, 1], got [1, 0]");
  });

  it("a syntax error in the solution is a syntax_error", async () => {
    expect(
      (
        await score(
          functionalProblem,
          fenced("class Solution:\n    def twoSum(self, nums, target)\n        return []"),
        )
      ).failure_type,
    ).toBe("syntax_error");
  });
});

describe("LiveCodeBench loading", () => {
  it("filters by contest date window", async () => {
    const datasets = new LocalFileDatasetReader(fixture);
    const recent = await liveCodeBenchBenchmark.loadItems({ datasets, since: "2024-01-01" });
    expect(recent.map((item) => item.id)).toEqual(["abc999_a"]);
    const older = await liveCodeBenchBenchmark.loadItems({ datasets, until: "2023-12-31" });
    expect(older.map((item) => item.id)).toEqual(["1"]);
  });
});
