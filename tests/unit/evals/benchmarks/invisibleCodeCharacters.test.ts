import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanEvalBenchmark } from "../../../../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import type { HumanEvalItem } from "../../../../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";
import { mbppBenchmark } from "../../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import type { MbppItem } from "../../../../src-main/evals/benchmarks/mbpp/MbppItem.js";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { splitResponse } from "../../../../src-main/evals/runner/splitResponse.js";
import { SandboxPool } from "../../../../src-main/evals/scoring/SandboxPool.js";
import { fixtureDataset } from "../../../helpers/fixtureDatasets.js";

// A byte-order mark or zero-width character at the start of an answer's line is invisible to the
// reader and refused by Python; a correct answer that carries one is still correct.

let pool: SandboxPool;
let truncate: HumanEvalItem;
let mbpp: MbppItem;

beforeAll(async () => {
  pool = await SandboxPool.create({ threads: 2 });
  const items = await humanEvalBenchmark.loadItems({
    datasets: new LocalFileDatasetReader(fixtureDataset("HumanEval.jsonl.gz")),
  });
  truncate = items.find((item) => item.id === "HumanEval/2")!;
  const tasks = await mbppBenchmark.loadItems({
    datasets: new LocalFileDatasetReader(fixtureDataset("mbpp.jsonl")),
  });
  mbpp = tasks.find((item) => item.id === "11")!;
});
afterAll(() => pool.close());

const good = "def truncate_number(number: float) -> float:\n    return number % 1.0\n";

describe("invisible characters at the start of code lines", () => {
  it.each([
    ["a BOM before def in the block", `\`\`\`python\n\ufeff${good}\`\`\``],
    ["a BOM before the fence", `\ufeff\`\`\`python\n${good}\`\`\``],
    ["a zero-width space before def", `\`\`\`python\n\u200b${good}\`\`\``],
    ["a word joiner on every line", `\`\`\`python\n${good.replace(/^/gm, "\u2060")}\`\`\``],
    ["a BOM in an unfenced answer", `\ufeff${good}`],
  ])("HumanEval: %s passes", async (_name, response) => {
    const result = await humanEvalBenchmark.score(truncate, splitResponse(response), {
      sandbox: pool,
      checkTimeoutS: 5,
    });
    expect(result).toMatchObject({ correct: true });
    expect(result.extracted).not.toMatch(/[\ufeff\u200b\u2060]/);
  });

  it("MBPP: a BOM before the function passes", async () => {
    const response = `\`\`\`python\n\ufeff${mbpp.code}\n\`\`\``;
    const result = await mbppBenchmark.score(mbpp, splitResponse(response), {
      sandbox: pool,
      checkTimeoutS: 5,
    });
    expect(result).toMatchObject({ correct: true });
  });

  it("a wrong answer with a BOM is still wrong", async () => {
    const response = `\`\`\`python\n\ufeffdef truncate_number(number: float) -> float:\n    return number\n\`\`\``;
    const result = await humanEvalBenchmark.score(truncate, splitResponse(response), {
      sandbox: pool,
      checkTimeoutS: 5,
    });
    expect(result).toMatchObject({ correct: false, failure_type: "wrong_answer" });
  });
});
