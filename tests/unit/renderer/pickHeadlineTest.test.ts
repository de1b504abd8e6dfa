import { describe, expect, it } from "vitest";
import { summarizePerformance } from "../../../src-main/catalog/summarizePerformance.js";
import { pickHeadlineTest } from "../../../src-shared/contracts/pickHeadlineTest.js";
import { applyPerfEvent, newLiveRun } from "../../../src-renderer/store/LiveRun.js";
import { performanceResult } from "./fixtures.js";

const sized = (prompt_tokens: number, generated_tokens = 128) => ({ prompt_tokens, generated_tokens });

describe("pickHeadlineTest", () => {
  it("picks 1024/128, else the nearest in relative size, the shorter prompt on a tie", () => {
    expect(pickHeadlineTest([sized(512), sized(1024), sized(4096)])).toEqual(sized(1024));
    expect(pickHeadlineTest([sized(128), sized(2048)])).toEqual(sized(2048));
    expect(pickHeadlineTest([sized(2048), sized(512)])).toEqual(sized(512));
    expect(pickHeadlineTest([sized(512), sized(2048)])).toEqual(sized(512));
    expect(pickHeadlineTest([sized(1024, 512), sized(1024)])).toEqual(sized(1024));
    expect(pickHeadlineTest([])).toBeUndefined();
  });

  it("the run card, the history row's rule and the Models Speed column name the same test", () => {
    for (const lengths of [[512, 1024], [128, 512, 2048], [2048, 512], [256], [4096, 8192]]) {
      const template = performanceResult().single[0]!;
      const single = lengths.map((prompt, index) => ({
        ...template,
        prompt_tokens: prompt,
        pp_tps: 100 + index,
        tg_tps: 10 + index,
      }));
      const result = performanceResult({ single });
      const run = applyPerfEvent(
        newLiveRun("performance", "r1", result.model_id, 0),
        { type: "completed", run_id: "r1", seq: 0, at: result.created_at, result },
        1,
      );
      const summary = summarizePerformance([result]);
      const picked = pickHeadlineTest(result.single);
      expect(run.headline?.promptTokens).toBe(picked?.prompt_tokens);
      expect(summary?.prompt_tokens).toBe(picked?.prompt_tokens);
      expect([run.headline?.promptTps, run.headline?.generationTps]).toEqual([
        summary?.pp_tps,
        summary?.tg_tps,
      ]);
    }
  });

  it("a run cancelled part-way is never the model's speed; its card still shows what it measured", () => {
    const completed = performanceResult({ created_at: "2026-03-01T10:00:00.000Z" });
    const cancelled = performanceResult({
      result_id: "perf-cancelled",
      created_at: "2026-03-02T10:00:00.000Z",
      status: "cancelled",
    });
    expect(summarizePerformance([completed, cancelled])?.result_id).toBe(completed.result_id);
    expect(summarizePerformance([cancelled])).toBeNull();
    const run = applyPerfEvent(
      newLiveRun("performance", "r2", cancelled.model_id, 0),
      { type: "cancelled", run_id: "r2", seq: 0, at: cancelled.created_at, result: cancelled },
      1,
    );
    expect(run).toMatchObject({ status: "cancelled", resultIds: ["perf-cancelled"] });
    expect(run.headline?.generationTps).toBe(pickHeadlineTest(cancelled.single)?.tg_tps);
  });
});
