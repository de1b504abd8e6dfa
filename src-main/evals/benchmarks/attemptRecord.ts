import { maxAttemptOutputLength, type QuestionAttempt } from "../../../src-shared/contracts/accuracy.js";
import { truncateMiddle } from "../../../src-shared/text/truncateMiddle.js";
import { boundedText } from "../scoring/boundedText.js";

/** One candidate run, bounded to what a saved result keeps per attempt. */
export function attemptRecord(
  passMode: string,
  outcome: QuestionAttempt["outcome"],
  error: string | null,
  output: string,
): QuestionAttempt {
  return {
    pass_mode: passMode,
    outcome,
    error: outcome === "passed" || error === null ? null : boundedText(error),
    output: truncateMiddle(output, maxAttemptOutputLength),
  };
}
