import { describe, expect, it } from "vitest";
import { summarizeAccuracy } from "../../../src-main/catalog/summarizeAccuracy.js";
import type { AccuracyResultCore } from "../../../src-shared/contracts/results.js";

const result = (
  id: string,
  benchmark: string,
  accuracy: number,
  day: number,
  status?: AccuracyResultCore["status"],
) => ({
  result_id: id,
  created_at: `2026-11-${String(day).padStart(2, "0")}T10:00:00.000Z`,
  model_id: "m",
  benchmark,
  accuracy,
  total: 10,
  ...(status ? { status } : {}),
});

describe("summarizeAccuracy", () => {
  it("keeps latest, best and best per benchmark of completed runs", () => {
    const summary = summarizeAccuracy([
      result("acc-a", "gsm8k", 0.5, 1, "completed"),
      result("acc-b", "gsm8k", 0.7, 2, "completed"),
      result("acc-c", "humaneval", 0.4, 3),
    ]);
    expect(summary.latest?.result_id).toBe("acc-c");
    expect(summary.best?.result_id).toBe("acc-b");
    expect(summary.best_by_benchmark.gsm8k.result_id).toBe("acc-b");
    expect(summary.best_by_benchmark.humaneval.accuracy).toBe(0.4);
  });

  it("never lets a cancelled or failed partial run count", () => {
    const summary = summarizeAccuracy([
      result("acc-a", "gsm8k", 0.5, 1, "completed"),
      result("acc-b", "gsm8k", 1, 2, "cancelled"),
      result("acc-c", "mmlu", 1, 3, "failed"),
    ]);
    expect(summary.best?.result_id).toBe("acc-a");
    expect(summary.latest?.result_id).toBe("acc-a");
    expect(Object.keys(summary.best_by_benchmark)).toEqual(["gsm8k"]);
    expect(summarizeAccuracy([result("acc-x", "gsm8k", 1, 1, "cancelled")]).best).toBeNull();
  });
});
