import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mbppBenchmark } from "../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import { LocalFileDatasetReader } from "../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { SandboxPool } from "../../../src-main/evals/scoring/SandboxPool.js";
import { fixtureDataset } from "../../helpers/fixtureDatasets.js";
import { splitResponse } from "../../../src-main/evals/runner/splitResponse.js";

let pool: SandboxPool;

beforeAll(async () => {
  pool = await SandboxPool.create();
});
afterAll(() => pool.close());

describe("MBPP canonical solutions through the scorer", () => {
  it.each([
    [
      "mbpp.jsonl (full, 974), fenced",
      "mbpp.jsonl",
      "full",
      974,
      (code: string) => `\`\`\`python\n${code}\n\`\`\``,
    ],
    [
      "sanitized-mbpp.json (427), as plain code",
      "sanitized-mbpp.json",
      "sanitized",
      427,
      (code: string) => code,
    ],
  ])("%s: every solution passes its asserts", async (_name, file, variant, count, present) => {
    // Every row of the upstream file, not only the Hub's test split.
    const items = await mbppBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixtureDataset(file), { wholeFile: true }),
      variant,
    });
    expect(items).toHaveLength(count);
    const results = await Promise.all(
      items.map((item) => mbppBenchmark.score(item, splitResponse(present(item.code)), { sandbox: pool })),
    );
    expect(
      results.filter((result) => !result.correct).map((result) => `${result.id}: ${result.error}`),
    ).toEqual([]);
  });

  it("setup code that must follow the solution passes as setup_after_code (tasks 367 and 927)", async () => {
    const items = await mbppBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixtureDataset("mbpp.jsonl"), { wholeFile: true }),
    });
    const withSetup = items.filter((item) => item.setup.trim());
    expect(withSetup.map((item) => item.id).sort()).toEqual(["367", "927"]);
    for (const item of withSetup) {
      expect(await mbppBenchmark.score(item, splitResponse(item.code), { sandbox: pool })).toMatchObject({
        correct: true,
        pass_mode: "response:setup_after_code",
      });
    }
  });
});
