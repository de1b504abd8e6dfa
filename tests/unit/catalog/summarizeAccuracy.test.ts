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

  it("marks a result measured on another file than the model has now, and only then", () => {
    const current = { revision: "c2", file_oid: "b".repeat(64), size_bytes: 100 };
    const measured = (file: AccuracyResultCore["model_file"], id: string, benchmark: string) => ({
      ...result(id, benchmark, 0.5, 1),
      ...(file ? { model_file: file } : {}),
    });
    const summary = summarizeAccuracy(
      [
        // An earlier commit whose file was the same content: still this file.
        measured({ revision: "c1", file_oid: "b".repeat(64), size_bytes: 100 }, "acc-same", "gsm8k"),
        // Another content id: an earlier file, whatever its size.
        measured({ revision: "c1", file_oid: "a".repeat(64), size_bytes: 100 }, "acc-old", "mbpp"),
        // A local file (no content id) is told by its size.
        measured({ revision: null, file_oid: null, size_bytes: 90 }, "acc-local", "mmlu"),
        // Saved before files were recorded: unknown, not marked.
        measured(undefined, "acc-unknown", "humaneval"),
      ],
      current,
    );
    const marks = Object.fromEntries(
      Object.entries(summary.best_by_benchmark).map(([benchmark, best]) => [
        benchmark,
        best.earlier_model_file,
      ]),
    );
    expect(marks).toEqual({ gsm8k: false, mbpp: true, mmlu: true, humaneval: false });
    // Without the model's current file nothing can be told.
    expect(summarizeAccuracy([measured(current, "acc-x", "gsm8k")]).latest?.earlier_model_file).toBe(false);
  });
});
