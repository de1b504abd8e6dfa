import type { HumanEvalItem } from "../../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";
import type { LiveCodeBenchItem } from "../../src-main/evals/benchmarks/livecodebench/LiveCodeBenchItem.js";
import { mbppFunctionName } from "../../src-main/evals/benchmarks/mbpp/mbppCandidates.js";
import type { MbppItem } from "../../src-main/evals/benchmarks/mbpp/MbppItem.js";
import type { ShapeInput } from "./codeResponseShapes.js";

/** The call starting at `from` with its balanced arguments (`f(a, (b, c))`), or null. */
function callAt(text: string, from: number): string | null {
  let depth = 0;
  for (let index = text.indexOf("(", from); index >= 0 && index < text.length; index++) {
    if (text[index] === "(") depth += 1;
    else if (text[index] === ")" && --depth === 0) return text.slice(from, index + 1);
  }
  return null;
}

const balanced = (line: string) =>
  [...line].filter((c) => "([{".includes(c)).length === [...line].filter((c) => ")]}".includes(c)).length;

/** A canonical HumanEval solution as chat models write it: the whole function, with example calls from its tests. */
export function humanEvalShapeInput(item: HumanEvalItem, body = item.canonicalSolution): ShapeInput {
  const asserts = item.test
    .split("\n")
    .filter((line) => /^ {4}assert .*candidate\(/.test(line) && balanced(line))
    .slice(0, 3)
    .map((line) => line.trim().replaceAll("candidate(", `${item.entryPoint}(`));
  const at = item.test.indexOf("candidate(");
  const call = at >= 0 ? callAt(item.test, at)?.replace("candidate", item.entryPoint) : null;
  return {
    code: `${item.prompt}${body}`.replace(/\r\n?/g, "\n").trimEnd(),
    style: "function",
    usage: `print(${call ?? `${item.entryPoint}`})`,
    asserts: asserts.length > 0 ? asserts : [`assert callable(${item.entryPoint})`],
  };
}

/** A canonical MBPP solution, with example calls and the task's own asserts. */
export function mbppShapeInput(item: MbppItem, code = item.code): ShapeInput {
  const name = mbppFunctionName(item);
  const at = name ? item.tests[0].indexOf(`${name}(`) : -1;
  const call = at >= 0 ? callAt(item.tests[0], at) : null;
  return {
    code: code.replace(/\r\n?/g, "\n").trimEnd(),
    style: "function",
    usage: `print(${call ?? "None"})`,
    asserts: item.tests.map((test) => test.replace(/\r\n?/g, "\n").trim()),
  };
}

/**
 * Solutions of the shipped LiveCodeBench samples (`tests/unit/evals/fixtures/livecodebench.jsonl`):
 * the dataset has none, so these are written here, by question id.
 */
export const liveCodeBenchSolutions: Record<string, { right: string; wrong: string; usage: string }> = {
  abc999_a: {
    right: "a, b = map(int, input().split())\nprint(a + b)",
    wrong: "a, b = map(int, input().split())\nprint(a - b)",
    usage: "1 2",
  },
  "1": {
    right: [
      "class Solution:",
      "    def twoSum(self, nums: List[int], target: int) -> List[int]:",
      "        seen = {}",
      "        for i, x in enumerate(nums):",
      "            if target - x in seen:",
      "                return [seen[target - x], i]",
      "            seen[x] = i",
    ].join("\n"),
    wrong: [
      "class Solution:",
      "    def twoSum(self, nums: List[int], target: int) -> List[int]:",
      "        return [0, 0]",
    ].join("\n"),
    usage: "print(Solution().twoSum([2, 7, 11, 15], 9))",
  },
};

export function liveCodeBenchShapeInput(item: LiveCodeBenchItem, which: "right" | "wrong"): ShapeInput {
  const solution = liveCodeBenchSolutions[item.id];
  if (item.functionName === null) {
    return {
      code: solution[which],
      style: "stdin",
      usage: solution.usage,
      asserts: [item.publicTests[0].output.trim()],
    };
  }
  return {
    code: solution[which],
    style: "function",
    usage: solution.usage,
    asserts: [`assert ${solution.usage.slice("print(".length, -1)} == [0, 1]`],
  };
}

/** A wrong HumanEval answer: the right signature, a body that returns nothing useful. */
export const humanEvalWrongBody = "    return None\n";

/** A HumanEval answer with a syntax error: the canonical function, then an unclosed bracket. */
export const humanEvalBrokenBody = (item: HumanEvalItem) =>
  `${item.canonicalSolution.trimEnd()}\nresult = (\n`;

/** A wrong MBPP answer: the function the asserts call, returning nothing useful. */
export const mbppWrongCode = (item: MbppItem) =>
  `def ${mbppFunctionName(item)}(*args, **kwargs):\n    return None`;

/** An MBPP answer with a syntax error: the canonical code, then an unclosed bracket. */
export const mbppBrokenCode = (item: MbppItem) =>
  `${item.code.replace(/\r\n?/g, "\n").trimEnd()}\nresult = (`;
