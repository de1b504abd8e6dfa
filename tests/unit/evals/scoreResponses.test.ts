import os from "node:os";
import { describe, expect, it } from "vitest";
import { scoreResponses } from "../../../src-main/evals/scoreResponses.js";
import { fixtureDataset } from "../../helpers/fixtureDatasets.js";

describe("scoreResponses (perch eval score)", () => {
  it("scores the answer without its reasoning and keeps the whole response", async () => {
    // GSM8K item 0 expects 18; the reasoning names another number in the answer format.
    const reasoned = "<think>Maybe 7? #### 7</think>\nThe answer is 18.";
    const results = await scoreResponses({
      benchmark: "gsm8k",
      datasetFile: fixtureDataset("gsm8k-test.jsonl"),
      datasetsDir: os.tmpdir(),
      lines: [
        { id: "0", response: reasoned },
        { id: "0", response: "<think>It is 18. #### 18</think>\nThe answer is 7." },
      ],
    });
    expect(
      results.map((result) => [result.correct, "extracted" in result ? result.extracted : null]),
    ).toEqual([
      [true, "18"],
      [false, "7"],
    ]);
    expect(results[0]).toMatchObject({ id: "0", response: reasoned });
  });
});
