import {
  isEarlierModelFile,
  type ModelFile,
  type PerformanceResultCore,
  type PerformanceSummary,
} from "../../src-shared/contracts/results.js";
import { pickHeadlineTest } from "../../src-shared/contracts/pickHeadlineTest.js";

/**
 * Speed of one model for its row: from the newest result that measured anything, its headline
 * test (`pickHeadlineTest`, the rule the run card and history row use too), marked when it
 * measured another file than `current`. Null without results.
 */
export function summarizePerformance(
  results: readonly PerformanceResultCore[],
  current?: ModelFile,
): PerformanceSummary | null {
  const newestFirst = [...results]
    // A run cancelled part-way is kept for its history, never as the model's speed.
    .filter((result) => result.single.length > 0 && result.status !== "cancelled")
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.result_id.localeCompare(a.result_id));
  const result = newestFirst[0];
  const test = result ? pickHeadlineTest(result.single) : undefined;
  if (!result || !test) return null;
  return {
    pp_tps: test.pp_tps,
    tg_tps: test.tg_tps,
    result_id: result.result_id,
    created_at: result.created_at,
    prompt_tokens: test.prompt_tokens,
    generated_tokens: test.generated_tokens,
    earlier_model_file: isEarlierModelFile(result.model_file, current),
  };
}
