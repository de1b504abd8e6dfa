import { describe, expect, it } from "vitest";
import { describeUpload } from "../../../src-main/perf/formatPerfResult.js";

describe("the CLI's upload line", () => {
  it("names the result to retry and where, not a placeholder", () => {
    const line = describeUpload(
      { state: "failed", error: "fetch failed: bad port", at: "2026-12-04T00:00:00.000Z" },
      "perf-20261204T000000Z-abc",
    );
    expect(line).toContain("fetch failed: bad port");
    expect(line).toContain("Retry upload");
    expect(line).toContain("/admin/api/bench/results/perf-20261204T000000Z-abc/upload");
    expect(line).not.toContain("{id}");
  });
});
