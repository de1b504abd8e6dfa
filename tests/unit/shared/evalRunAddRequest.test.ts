import { describe, expect, it } from "vitest";
import { evalRunAddRequestSchema } from "../../../src-shared/contracts/evalQueue.js";

const base = { model_id: "m", benchmarks: ["livecodebench"] };

describe("evalRunAddRequestSchema's date window", () => {
  it("refuses an 'until' before 'since' (a window with no day), naming 'until'", () => {
    const parsed = evalRunAddRequestSchema.safeParse({ ...base, since: "2025-06-01", until: "2025-01-01" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([["until"]]);
  });

  it.each([
    [{ since: "2025-01-01", until: "2025-01-01" }],
    [{ since: "2025-01-01", until: "2025-06-01" }],
    [{ since: "2025-01-01" }],
    [{ until: "2025-01-01" }],
    [{}],
  ])("takes %j", (window) => {
    expect(evalRunAddRequestSchema.safeParse({ ...base, ...window }).success).toBe(true);
  });
});
