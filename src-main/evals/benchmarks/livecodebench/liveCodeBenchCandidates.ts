import { codeAnalyzer, type CodeAnalyzer } from "../code/CodeAnalyzer.js";
import { findCodeSources } from "../code/findCodeSources.js";
import { selectCodeCandidates } from "../code/selectCodeCandidates.js";
import type { CodeCandidate } from "../scoreCodeCandidates.js";
import { escapeRegExp } from "../text/escapeRegExp.js";
import type { LiveCodeBenchItem } from "./LiveCodeBenchItem.js";

/** Each candidate runs every test: a wrong answer is tried in a few forms, not a dozen. */
const limit = 4;

/**
 * Candidate programs of a LiveCodeBench response (`pass_mode` `<source>:as_is`, sources as in
 * `findCodeSources`): for a functional problem those that define the `Solution` method (or the
 * function), sanitized as a module; for a stdin problem those that read standard input, kept whole
 * (their prints, `input()` and `__main__` block are the program).
 */
export async function liveCodeBenchCandidates(
  item: LiveCodeBenchItem,
  answer: string,
  analyzer: CodeAnalyzer = codeAnalyzer(),
): Promise<CodeCandidate[]> {
  const functional = item.functionName !== null;
  const sources = await findCodeSources(answer, {
    analyzer,
    roots: functional ? ["Solution", item.functionName!] : [],
    style: functional ? "function" : "stdin",
  });
  return selectCodeCandidates(
    sources.map((source) => ({ passMode: `${source.name}:as_is`, code: source.code, program: source.code })),
    {
      analyzer,
      entry: functional ? { kind: "solution", name: item.functionName! } : { kind: "stdin" },
      mentions: functional
        ? new RegExp(`\\bdef\\s+${escapeRegExp(item.functionName!)}\\s*\\(`)
        : /\binput\s*\(|\bstdin\b|\bopen\(\s*0/,
      limit,
    },
  );
}
