import { describe, expect, it } from "vitest";
import { codeAnalyzer } from "../../../../src-main/evals/benchmarks/code/CodeAnalyzer.js";
import { humanEvalBenchmark } from "../../../../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import { humanEvalCandidates } from "../../../../src-main/evals/benchmarks/humaneval/humanEvalCandidates.js";
import { liveCodeBenchBenchmark } from "../../../../src-main/evals/benchmarks/livecodebench/liveCodeBenchBenchmark.js";
import { liveCodeBenchCandidates } from "../../../../src-main/evals/benchmarks/livecodebench/liveCodeBenchCandidates.js";
import { mbppBenchmark } from "../../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import {
  mbppCandidates,
  mbppFunctionName,
} from "../../../../src-main/evals/benchmarks/mbpp/mbppCandidates.js";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { codeResponseShapes } from "../../../corpus/codeResponseShapes.js";
import {
  humanEvalShapeInput,
  liveCodeBenchShapeInput,
  mbppShapeInput,
} from "../../../corpus/codeShapeCases.js";
import { selectionMisses } from "../../../corpus/selectionMisses.js";
import { fixtureDataset } from "../../../helpers/fixtureDatasets.js";

/*
 * Candidate selection (no sandbox: the code analyzer only compiles) for every canonical solution
 * in every response shape: the scorer's candidates must include the canonical code itself (or its
 * sanitized form). Running them is the sandboxed shape test's and the bench's job. MBPP solutions
 * each take every third shape here (rotating, so each shape meets a third of them); the bench
 * scores all of them in all shapes.
 */
const analyzer = codeAnalyzer();
/** Every row of the upstream file, not only the Hub split: all canonical solutions are checked. */
const load = (file: string) => new LocalFileDatasetReader(fixtureDataset(file), { wholeFile: true });

describe("candidate selection over the response-shape corpus", () => {
  it("has at least 20 distinct shapes", () => {
    expect(new Set(codeResponseShapes.map((shape) => shape.name)).size).toBeGreaterThanOrEqual(20);
  });

  it("HumanEval: all 164 canonical solutions in every shape", async () => {
    const items = await humanEvalBenchmark.loadItems({ datasets: load("HumanEval.jsonl") });
    expect(items).toHaveLength(164);
    const misses = await selectionMisses(items, {
      analyzer,
      input: (item) => humanEvalShapeInput(item),
      roots: (item) => [item.entryPoint],
      candidates: (item, answer) => humanEvalCandidates(item, answer, analyzer),
    });
    expect(misses).toEqual({});
  }, 300_000);

  it("sanitized MBPP: all 427 canonical solutions, each in every third shape (rotating)", async () => {
    const items = await mbppBenchmark.loadItems({
      datasets: load("sanitized-mbpp.json"),
      variant: "sanitized",
    });
    expect(items).toHaveLength(427);
    const misses = await selectionMisses(items, {
      analyzer,
      input: (item) => mbppShapeInput(item),
      roots: (item) => [mbppFunctionName(item) ?? ""],
      candidates: (item, answer) => mbppCandidates(item, answer, analyzer),
      stride: 3,
    });
    expect(misses).toEqual({});
  }, 300_000);

  it("LiveCodeBench: the shipped samples in every shape", async () => {
    const items = await liveCodeBenchBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(
        new URL("../fixtures/livecodebench.jsonl", import.meta.url).pathname,
      ),
    });
    expect(items).toHaveLength(2);
    const misses = await selectionMisses(items, {
      analyzer,
      input: (item) => liveCodeBenchShapeInput(item, "right"),
      roots: (item) => (item.functionName ? ["Solution", item.functionName] : []),
      candidates: (item, answer) => liveCodeBenchCandidates(item, answer, analyzer),
    });
    expect(misses).toEqual({});
  });
});
