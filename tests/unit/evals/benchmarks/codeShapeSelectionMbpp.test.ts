import { expect, it } from "vitest";
import { codeAnalyzer } from "../../../../src-main/evals/benchmarks/code/CodeAnalyzer.js";
import { mbppBenchmark } from "../../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import {
  mbppCandidates,
  mbppFunctionName,
} from "../../../../src-main/evals/benchmarks/mbpp/mbppCandidates.js";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { mbppShapeInput } from "../../../corpus/codeShapeCases.js";
import { selectionMisses } from "../../../corpus/selectionMisses.js";
import { fixtureDataset } from "../../../helpers/fixtureDatasets.js";

/** As codeShapeSelection.test.ts, for full MBPP (its own file: the largest set runs beside the others). */
it("MBPP (full): all 974 canonical solutions, each in every fourth shape (rotating)", async () => {
  const analyzer = codeAnalyzer();
  const items = await mbppBenchmark.loadItems({
    datasets: new LocalFileDatasetReader(fixtureDataset("mbpp.jsonl"), { wholeFile: true }),
  });
  expect(items).toHaveLength(974);
  const misses = await selectionMisses(items, {
    analyzer,
    input: (item) => mbppShapeInput(item),
    roots: (item) => [mbppFunctionName(item) ?? ""],
    candidates: (item, answer) => mbppCandidates(item, answer, analyzer),
    stride: 4,
  });
  expect(misses).toEqual({});
}, 600_000);
