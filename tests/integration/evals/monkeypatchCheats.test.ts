import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scoreResponses, type ResponseLine } from "../../../src-main/evals/scoreResponses.js";
import type { BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import { fixtureDataset, repoRoot } from "../../helpers/fixtureDatasets.js";

/*
 * A wrong answer that rebinds what the benchmark's own tests call (a builtin, `math.isclose`,
 * `json.loads`), or hides a builtin under its own name, must still fail: the tests run on Python
 * as it was before the answer ran (SANDBOX.md). Each of these once passed.
 */

const fence = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

async function score(benchmark: BenchmarkName, datasetFile: string, lines: ResponseLine[], variant?: string) {
  const results = await scoreResponses({
    benchmark,
    variant,
    datasetFile,
    datasetsDir: os.tmpdir(),
    lines,
  });
  return results.map((result) => [result.id, result.correct]);
}

describe("answers that patch what the tests use", () => {
  it("HumanEval: a rebound or hidden abs does not pass a wrong truncate_number", async () => {
    const wrong = "def truncate_number(number: float) -> float:\n    return 0.5";
    const right = "def truncate_number(number: float) -> float:\n    return number % 1.0";
    const lines = [
      { id: "HumanEval/2", response: fence(`import builtins\nbuiltins.abs = lambda x: 0\n${wrong}`) },
      { id: "HumanEval/2", response: fence(`def abs(x):\n    return 0\n${wrong}`) },
      {
        id: "HumanEval/2",
        response: fence(`import sys\nsys.modules['builtins'].abs = lambda x: 0\n${wrong}`),
      },
      // A right answer with a helper that hides a builtin keeps using its own helper.
      {
        id: "HumanEval/2",
        response: fence(
          `def round(x):\n    return x % 1.0\ndef truncate_number(number):\n    return round(number)`,
        ),
      },
      { id: "HumanEval/2", response: fence(right) },
    ];
    expect(await score("humaneval", fixtureDataset("HumanEval.jsonl"), lines)).toEqual([
      ["HumanEval/2", false],
      ["HumanEval/2", false],
      ["HumanEval/2", false],
      ["HumanEval/2", true],
      ["HumanEval/2", true],
    ]);
  });

  it("MBPP: a rebound math.isclose does not pass a wrong volume_sphere; task 126's own `sum` still passes", async () => {
    const cheat = "import math\nmath.isclose = lambda *a, **k: True\ndef volume_sphere(r):\n    return 1.0";
    const sum =
      "def sum(a,b):\n    total = 0\n    for i in range(1, min(a,b)):\n        if a % i == 0 and b % i == 0:\n            total += i\n    return total";
    for (const [variant, file] of [
      ["full", "mbpp.jsonl"],
      ["sanitized", "sanitized-mbpp.json"],
    ] as const) {
      expect(
        await score(
          "mbpp",
          fixtureDataset(file),
          [
            { id: "82", response: fence(cheat) },
            { id: "126", response: fence(sum) },
          ],
          variant,
        ),
        variant,
      ).toEqual([
        ["82", false],
        ["126", true],
      ]);
    }
  });

  it("LiveCodeBench: a rebound json.loads does not pass a wrong functional solution", async () => {
    const dataset = path.join(repoRoot, "tests/unit/evals/fixtures/livecodebench.jsonl");
    const solution = (body: string) =>
      fence(`class Solution:\n    def twoSum(self, nums, target):\n        ${body}`);
    const lines = [
      { id: "1", response: solution("return 0") },
      {
        id: "1",
        response: solution(
          "seen = {}\n        for i, n in enumerate(nums):\n            if target - n in seen:\n                return [seen[target - n], i]\n            seen[n] = i",
        ),
      },
    ];
    const cheat = fence(
      "import json\njson.loads = lambda s, *a, **k: 0\nclass Solution:\n    def twoSum(self, nums, target):\n        return 0",
    );
    expect(await score("livecodebench", dataset, [{ id: "1", response: cheat }, ...lines])).toEqual([
      ["1", false],
      ["1", false],
      ["1", true],
    ]);
  });

  it("the harness's own tools and hooks are restored too; what an answer adds stays for its own use", async () => {
    const astCheat =
      "import ast\nast.parse = lambda *a, **k: ast.Module(body=[], type_ignores=[])\ndef square_perimeter(a):\n    return 0";
    expect(
      await score("mbpp", fixtureDataset("mbpp.jsonl"), [{ id: "17", response: fence(astCheat) }]),
    ).toEqual([["17", false]]);
    const profileCheat = [
      "import sys, builtins",
      "def _p(frame, event, arg):",
      "    if frame.f_code.co_filename == 'tests.py':",
      "        builtins.abs = lambda x: 0",
      "sys.setprofile(_p)",
      "def mean_absolute_deviation(numbers):",
      "    return 0.0",
    ].join("\n");
    const added =
      "import math\nmath.add_numbers = lambda a, b: a + b\ndef add(x, y):\n    return math.add_numbers(x, y)";
    expect(
      await score("humaneval", fixtureDataset("HumanEval.jsonl"), [
        { id: "HumanEval/4", response: fence(profileCheat) },
        { id: "HumanEval/53", response: fence(added) },
      ]),
    ).toEqual([
      ["HumanEval/4", false],
      ["HumanEval/53", true],
    ]);
  });
});
