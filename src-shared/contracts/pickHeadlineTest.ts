import { canonicalPerformanceTest } from "./results.js";

/** The sizes a single-request test is picked by. */
export interface SizedTest {
  prompt_tokens: number;
  generated_tokens: number;
}

/**
 * The one single-request test whose speeds stand for a whole performance run, wherever a run is
 * summarised (the finished run's headline, the history row, the Models page's Speed column): the
 * test at 1024 prompt / 128 generated tokens, or the nearest one measured. Distance is in relative
 * size (512 and 2048 are equally far from 1024); a tie goes to the shorter prompt, so the pick
 * does not depend on the order the tests ran in. Undefined without tests.
 */
export function pickHeadlineTest<Test extends SizedTest>(tests: readonly Test[]): Test | undefined {
  const distance = (test: SizedTest) =>
    Math.abs(Math.log2(Math.max(1, test.prompt_tokens) / canonicalPerformanceTest.prompt_tokens)) +
    Math.abs(Math.log2(Math.max(1, test.generated_tokens) / canonicalPerformanceTest.generated_tokens));
  let best: Test | undefined;
  for (const test of tests) {
    if (
      !best ||
      distance(test) < distance(best) ||
      (distance(test) === distance(best) && test.prompt_tokens < best.prompt_tokens)
    )
      best = test;
  }
  return best;
}
