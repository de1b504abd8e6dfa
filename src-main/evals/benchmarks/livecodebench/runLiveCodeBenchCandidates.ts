import type { CodeSandbox } from "../../scoring/SandboxRun.js";
import { attemptRecord } from "../attemptRecord.js";
import type { Verdict } from "../questionResult.js";
import { failureRank, judgeWithRivals, type CodeCandidate } from "../scoreCodeCandidates.js";
import type { LiveCodeBenchTest } from "./LiveCodeBenchItem.js";
import { runLiveCodeBenchTests } from "./runLiveCodeBenchTests.js";

/** How far a failing verdict got (`scoreCodeCandidates`' ranking; other types rank lowest). */
const rank = (verdict: Extract<Verdict, { correct: false }>) =>
  (failureRank as Record<string, number>)[verdict.failureType] ?? 0;

/**
 * Runs the tests on each candidate in order until one passes every test. After a timeout or
 * memory failure no further candidate is tried: the code itself ran away. Each candidate is
 * recorded in the verdict's `attempts`. Rival solutions in one answer must each pass
 * (`judgeWithRivals`).
 */
export function runLiveCodeBenchCandidates(
  candidates: CodeCandidate[],
  tests: LiveCodeBenchTest[],
  options: { sandbox: CodeSandbox; functionName: string | null; timeoutS: number; signal?: AbortSignal },
): Promise<Verdict> {
  return judgeWithRivals(candidates, (list) => firstPassing(list, tests, options));
}

async function firstPassing(
  candidates: CodeCandidate[],
  tests: LiveCodeBenchTest[],
  options: { sandbox: CodeSandbox; functionName: string | null; timeoutS: number; signal?: AbortSignal },
): Promise<Verdict> {
  let best: Extract<Verdict, { correct: false }> | null = null;
  const attempts: NonNullable<Verdict["attempts"]> = [];
  for (const candidate of candidates) {
    const verdict = await runLiveCodeBenchTests(candidate.code, tests, {
      ...options,
      passMode: candidate.passMode,
    });
    attempts.push(
      verdict.correct
        ? attemptRecord(candidate.passMode, "passed", null, "")
        : attemptRecord(candidate.passMode, verdict.failureType, verdict.error, verdict.testOutput ?? ""),
    );
    if (verdict.correct) return { ...verdict, attempts, testOutput: null };
    if (!best || rank(verdict) > rank(best)) best = verdict;
    if (verdict.failureType === "timeout" || verdict.failureType === "memory") break;
  }
  if (!best)
    return {
      correct: false,
      failureType: "no_code",
      error: "no code found in the response",
      extracted: null,
    };
  return { ...best, attempts };
}
