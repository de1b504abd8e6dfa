import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanEvalBenchmark } from "../../../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import type { HumanEvalItem } from "../../../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";
import { LocalFileDatasetReader } from "../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { SandboxPool } from "../../../src-main/evals/scoring/SandboxPool.js";
import { fixtureDataset } from "../../helpers/fixtureDatasets.js";
import { splitResponse } from "../../../src-main/evals/runner/splitResponse.js";

let pool: SandboxPool;
let items: HumanEvalItem[];

beforeAll(async () => {
  pool = await SandboxPool.create();
  items = await humanEvalBenchmark.loadItems({
    datasets: new LocalFileDatasetReader(fixtureDataset("HumanEval.jsonl.gz")),
  });
});
afterAll(() => pool.close());

const mapIndent = (body: string, indent: (spaces: number) => number) =>
  body
    .split("\n")
    .map((line) => {
      const spaces = /^ */.exec(line)![0].length;
      return " ".repeat(indent(spaces)) + line.slice(spaces);
    })
    .join("\n");
const withoutImports = (prompt: string) =>
  prompt
    .split("\n")
    .filter((line) => !/^(import|from)\s/.test(line))
    .join("\n");

/** The canonical solution as models present it. */
const presentations: [string, (item: HumanEvalItem) => string, string[]][] = [
  [
    "(a) full function, fenced, with prose before and after",
    (item) =>
      `Sure! Here is the implementation:\n\n\`\`\`python\n${item.prompt}${item.canonicalSolution}\`\`\`\n\nIt loops over the input once.`,
    ["block_1:as_is"],
  ],
  ["(b) body only", (item) => item.canonicalSolution, ["response:body_only"]],
  [
    "(c) body with zero indentation",
    (item) => mapIndent(item.canonicalSolution, (n) => Math.max(0, n - 4)),
    ["response:normalized_indent"],
  ],
  [
    "(d) body with 2-space indentation",
    (item) => mapIndent(item.canonicalSolution, (n) => n / 2),
    ["response:normalized_indent"],
  ],
  [
    "(e) full function without the prompt's imports",
    (item) => `\`\`\`python\n${withoutImports(item.prompt)}${item.canonicalSolution}\`\`\``,
    ["block_1:as_is", "block_1:full_function"],
  ],
  [
    "(f) after a <think> block",
    (item) =>
      `<think>We need ${item.entryPoint}. Draft:\n\`\`\`python\ndef ${item.entryPoint}(*args):\n    return None\n\`\`\`\nNo, do it properly.</think>\n\n\`\`\`python\n${item.prompt}${item.canonicalSolution}\`\`\``,
    ["block_1:as_is"],
  ],
];

describe("HumanEval canonical solutions through the scorer", () => {
  it("reads the 164 problems", () => {
    expect(items).toHaveLength(164);
  });

  it.each(presentations)("%s: 164/164 pass", async (_name, present, modes) => {
    const results = await Promise.all(
      items.map((item) => humanEvalBenchmark.score(item, splitResponse(present(item)), { sandbox: pool })),
    );
    expect(
      results.filter((result) => !result.correct).map((result) => `${result.id}: ${result.error}`),
    ).toEqual([]);
    expect(results.every((result) => modes.includes(result.pass_mode!))).toBe(true);
  });

  it("imports the prompt needs are added back for a full function (pass_mode block_1:full_function)", async () => {
    const needsImports = items.filter(
      (item) => /^(import|from)\s/m.test(item.prompt) && item.prompt.includes("List["),
    );
    const item = needsImports[0];
    const result = await humanEvalBenchmark.score(
      item,
      splitResponse(`\`\`\`python\n${withoutImports(item.prompt)}${item.canonicalSolution}\`\`\``),
      { sandbox: pool },
    );
    expect(result).toMatchObject({ correct: true, pass_mode: "block_1:full_function" });
  });

  it("a subtly wrong solution is a wrong_answer", async () => {
    const item = items[0];
    const wrong = item.canonicalSolution.replace("distance < threshold", "distance < threshold / 2");
    expect(wrong).not.toBe(item.canonicalSolution);
    const result = await humanEvalBenchmark.score(item, splitResponse(wrong), { sandbox: pool });
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer", pass_mode: null });
    expect(result.error).toBe("AssertionError");
  });

  it("an infinite loop is a timeout within the limit", async () => {
    const started = performance.now();
    const result = await humanEvalBenchmark.score(
      items[0],
      splitResponse("    while True:\n        pass\n"),
      {
        sandbox: pool,
        checkTimeoutS: 2,
      },
    );
    const seconds = (performance.now() - started) / 1000;
    expect(result).toMatchObject({ correct: false, failure_type: "timeout" });
    // 2 s of CPU, or the 7 s wall-clock backstop on a busy machine; one candidate only.
    expect(seconds).toBeLessThan(9);
  });

  it("a syntax error is a syntax_error", async () => {
    const result = await humanEvalBenchmark.score(
      items[0],
      splitResponse("```python\n    return [x for x in\n```"),
      {
        sandbox: pool,
      },
    );
    expect(result).toMatchObject({ correct: false, failure_type: "syntax_error" });
    expect(result.error).toMatch(/SyntaxError/);
  });

  it("a response without code is no_code", async () => {
    const result = await humanEvalBenchmark.score(
      items[0],
      splitResponse("<think>hmm</think>I am not able to help with that."),
      { sandbox: pool },
    );
    expect(result).toMatchObject({ correct: false, failure_type: "no_code", extracted: null });
  });
});
