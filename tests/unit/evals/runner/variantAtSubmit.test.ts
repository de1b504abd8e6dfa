import { describe, expect, it } from "vitest";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { createBenchmarkSource } from "../../../../src-main/evals/queue/createBenchmarkSource.js";
import { fixtureDataset } from "../../../helpers/fixtureDatasets.js";
import { createQueueFixture } from "./queueFixture.js";

describe("an unknown variant", () => {
  it("is refused when the run is added (400, param variants), not failed later", async () => {
    const { add, queue } = createQueueFixture({
      benchmarks: createBenchmarkSource({
        datasets: new LocalFileDatasetReader(fixtureDataset("gsm8k-test.jsonl")),
      }),
    });
    await expect(
      add({ model_id: "m1", benchmarks: ["mmlu"], variants: { mmlu: "nope" }, thinking: "off" }),
    ).rejects.toMatchObject({
      code: "invalid_request",
      status: 400,
      param: "variants",
      message: "Benchmark 'mmlu' has no variant 'nope'; it has test.",
    });
    await expect(
      add({ model_id: "m1", benchmarks: ["mbpp"], variants: { mbpp: "nosuch" }, thinking: "off" }),
    ).rejects.toMatchObject({ message: expect.stringContaining("it has full, sanitized") });
    expect(queue.list()).toMatchObject({ running: null, queued: [], finished: [] });
  });
});
