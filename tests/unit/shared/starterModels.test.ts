import { describe, expect, it } from "vitest";
import {
  starterDownloadRequest,
  starterModels,
  starterModelSchema,
} from "../../../src-shared/catalog/starterModels.js";

describe("starter models (first-run onboarding)", () => {
  it("are valid, small, licensed, smallest first, and each a valid download request", () => {
    expect(starterModels.length).toBeGreaterThanOrEqual(3);
    for (const model of starterModels) {
      expect(starterModelSchema.parse(model)).toEqual(model);
      expect(model.approximate_bytes).toBeLessThan(3_000_000_000);
      expect(starterDownloadRequest(model)).toEqual({ source: "hf", repo: model.repo, quant: model.quant });
    }
    const sizes = starterModels.map((model) => model.approximate_bytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });
});
