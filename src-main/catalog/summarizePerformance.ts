import {
  canonicalPerformanceTest,
  type PerformanceResultCore,
  type PerformanceSingleTest,
  type PerformanceSummary,
} from "../../src-shared/contracts/results.js";

/**
 * Speed of one model for its row: from the newest result that measured anything, the
 * single-request test at 1024 prompt / 128 generated tokens, or the nearest one (distance in
 * relative size, so 512/128 and 2048/128 are equally far from 1024/128). Null without results.
 */
export function summarizePerformance(results: readonly PerformanceResultCore[]): PerformanceSummary | null {
  const newestFirst = [...results]
    .filter((result) => result.single.length > 0)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.result_id.localeCompare(a.result_id));
  const result = newestFirst[0];
  if (!result) return null;
  const test = nearestCanonical(result.single);
  return {
    pp_tps: test.pp_tps,
    tg_tps: test.tg_tps,
    result_id: result.result_id,
    created_at: result.created_at,
    prompt_tokens: test.prompt_tokens,
    generated_tokens: test.generated_tokens,
  };
}

function nearestCanonical(tests: readonly PerformanceSingleTest[]): PerformanceSingleTest {
  const distance = (test: PerformanceSingleTest) =>
    Math.abs(Math.log2(Math.max(1, test.prompt_tokens) / canonicalPerformanceTest.prompt_tokens)) +
    Math.abs(Math.log2(Math.max(1, test.generated_tokens) / canonicalPerformanceTest.generated_tokens));
  return tests.reduce((best, test) => (distance(test) < distance(best) ? test : best));
}
