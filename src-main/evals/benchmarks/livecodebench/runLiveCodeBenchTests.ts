import type { CodeSandbox } from "../../scoring/SandboxRun.js";
import { checkOutput } from "../checkOutput.js";
import type { Verdict } from "../questionResult.js";
import { compareOutput } from "./compareOutput.js";
import type { LiveCodeBenchTest } from "./LiveCodeBenchItem.js";
import { functionalProgram, stdinProgram } from "./liveCodeBenchPrograms.js";

/**
 * Runs the tests one check each, in order, stopping at the first failure (its type, and for
 * stdin problems the first differing output line, are the verdict). The failing test's output
 * is the verdict's `testOutput`.
 */
export async function runLiveCodeBenchTests(
  code: string,
  tests: LiveCodeBenchTest[],
  options: {
    sandbox: CodeSandbox;
    functionName: string | null;
    /** What the code is: a fenced block (`extracted_block`) or the whole answer (`as_is`). */
    passMode: string;
    timeoutS: number;
    signal?: AbortSignal;
  },
): Promise<Verdict> {
  for (const [index, test] of tests.entries()) {
    options.signal?.throwIfAborted();
    const label = `test ${index + 1}/${tests.length}`;
    const functional = test.testtype === "functional" && options.functionName !== null;
    const result = await options.sandbox.run(
      functional
        ? { ...functionalProgram(code, options.functionName!, test), timeoutS: options.timeoutS }
        : { code: stdinProgram(code), stdin: test.input, timeoutS: options.timeoutS, exitIsSuccess: true },
      options.signal,
    );
    if (result.outcome !== "passed") {
      return {
        correct: false,
        failureType: result.outcome,
        error: `${label}: ${result.error}`,
        extracted: code,
        testOutput: `${label}\n${checkOutput(result)}`,
      };
    }
    const difference = functional ? null : compareOutput(result.stdout, test.output);
    if (difference)
      return {
        correct: false,
        failureType: "wrong_answer",
        error: `${label}: ${difference}`,
        extracted: code,
        testOutput: `${label}: ${difference}\n\nexpected:\n${test.output.trim()}\n\n${checkOutput(result) || "(no output)"}`,
      };
  }
  return { correct: true, passMode: options.passMode, extracted: code };
}
