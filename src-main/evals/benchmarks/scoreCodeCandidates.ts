import type { FailureType } from "../../../src-shared/contracts/accuracy.js";
import type { CodeSandbox, SandboxOutcome, SandboxRunResult } from "../scoring/SandboxRun.js";
import { checkOutput } from "./checkOutput.js";
import { attemptRecord } from "./attemptRecord.js";
import type { Verdict } from "./questionResult.js";
import { splitAtTests, testsStartedMarker } from "./testsStartedMarker.js";

/** One repair of a response: the code as shown to the user, and the program that tests it. */
export interface CodeCandidate {
  /** `<source>:<repair>`, e.g. `block_2:full_function` (see `findCodeSources`). */
  passMode: string;
  code: string;
  program: string;
  /** The program without its tests: what must compile and define the entry point. Defaults to `code`. */
  definition?: string;
  /**
   * Set when the answer defines the entry point differently in more than one place (two blocks,
   * "a first version ... a final version"): the place (`block_2`) this candidate comes from. Each
   * such place must pass, or the answer holds a wrong solution (`selectCodeCandidates`).
   */
  rival?: string;
}

/**
 * How far a failing candidate got: the most informative failure is the one reported. A sandbox
 * failure wins over everything (also over a failure raised by the tests): that candidate was never
 * judged, so the question cannot be called wrong.
 */
export const failureRank: Record<Exclude<SandboxOutcome, "passed">, number> = {
  scoring_error: 100,
  wrong_answer: 4,
  timeout: 3,
  memory: 3,
  disk_quota: 3,
  runtime_error: 2,
  syntax_error: 1,
};

/**
 * Runs candidates in their fixed order until one passes. Identical programs run once. Of the
 * failures, one raised by the benchmark's tests wins over one raised before them, then the most
 * informative type. After a timeout, memory or disk-quota failure no further repair is tried: the
 * code itself ran away, and every repair only re-wraps the same code. Nor after a `scoring_error`:
 * the question is unscored. Every program run is recorded in `attempts`; the reported failure's
 * whole output is the verdict's `testOutput`.
 *
 * An answer with rival definitions of the entry point (candidates with `rival` set) passes only
 * when every rival passes (with any of its repairs): one that fails is a wrong solution in the
 * answer, never outvoted by a right one elsewhere in it.
 */
export async function scoreCodeCandidates(
  candidates: CodeCandidate[],
  sandbox: CodeSandbox,
  options: {
    timeoutS: number;
    signal?: AbortSignal;
    /** Names the tests call in the code even where they hide a builtin (`SandboxRunRequest.testNames`). */
    testNames?: readonly string[];
  },
): Promise<Verdict> {
  const attempts: NonNullable<Verdict["attempts"]> = [];
  // A rival's candidates that ran before the passing one are not run again.
  const ran = new Map<string, SandboxRunResult>();
  const run = async (program: string) => {
    const known = ran.get(program);
    if (known) return { result: known, fresh: false };
    options.signal?.throwIfAborted();
    const result = await sandbox.run(
      { ...splitAtTests(program), testNames: options.testNames, timeoutS: options.timeoutS },
      options.signal,
    );
    ran.set(program, result);
    return { result, fresh: true };
  };
  const verdict = await judgeWithRivals(candidates, (list) => firstPassing(list, run, attempts));
  return { ...verdict, attempts };
}

/**
 * The verdict of `judge` (first passing candidate, else the most telling failure) on every
 * candidate; when it passes, also on each other rival's own candidates (`CodeCandidate.rival`):
 * the first rival that fails fails the answer. `attempts` are those of every judgement, in order.
 */
export async function judgeWithRivals(
  candidates: CodeCandidate[],
  judge: (candidates: CodeCandidate[]) => Promise<Verdict>,
): Promise<Verdict> {
  const first = await judge(candidates);
  if (!first.correct) return first;
  const attempts = [...(first.attempts ?? [])];
  const passed = candidates.find((candidate) => candidate.passMode === first.passMode);
  const rivals = [...new Set(candidates.map((candidate) => candidate.rival))].filter(
    (rival): rival is string => rival !== undefined && rival !== passed?.rival,
  );
  for (const rival of rivals) {
    const verdict = await judge(candidates.filter((candidate) => candidate.rival === rival));
    for (const attempt of verdict.attempts ?? []) if (!attempts.includes(attempt)) attempts.push(attempt);
    if (verdict.correct) continue;
    return {
      ...verdict,
      error: `${rival} defines the solution differently from ${first.passMode.split(":")[0]} (which passes) and fails: ${verdict.error ?? verdict.failureType}`,
      attempts,
    };
  }
  return { ...first, attempts };
}

/** `scoreCodeCandidates` without rivals: the first candidate that passes, else the most telling failure. */
async function firstPassing(
  candidates: CodeCandidate[],
  run: (program: string) => Promise<{ result: SandboxRunResult; fresh: boolean }>,
  attempts: NonNullable<Verdict["attempts"]>,
): Promise<Verdict> {
  let best: {
    rank: number;
    outcome: Exclude<SandboxOutcome, "passed">;
    error: string | null;
    code: string;
    output: string;
  } | null = null;
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (seen.has(candidate.program)) continue;
    seen.add(candidate.program);
    const { result, fresh } = await run(candidate.program);
    const output = checkOutput(result);
    if (fresh) attempts.push(attemptRecord(candidate.passMode, result.outcome, result.error, output));
    if (result.outcome === "passed")
      return {
        correct: true,
        passMode: candidate.passMode,
        extracted: candidate.code,
        attempts,
        testOutput: null,
      };
    const rank = failureRank[result.outcome] + (result.stdout.includes(testsStartedMarker) ? 10 : 0);
    if (!best || rank > best.rank)
      best = { rank, outcome: result.outcome, error: result.error, code: candidate.code, output };
    // The code ran away (every repair re-wraps the same code), or the sandbox itself failed.
    if (["timeout", "memory", "disk_quota", "scoring_error"].includes(result.outcome)) break;
  }
  if (!best)
    return {
      correct: false,
      failureType: "no_code",
      error: "no code found in the response",
      extracted: null,
    };
  const failureType: FailureType = best.outcome;
  return {
    correct: false,
    failureType,
    error: best.error,
    extracted: best.code,
    attempts,
    testOutput: best.output,
  };
}
