import type { CodeCandidate } from "../scoreCodeCandidates.js";
import type { CodeAnalyzer, EntryPoint } from "./CodeAnalyzer.js";

/** Most programs run per response: a wrong answer is tried in every form before it fails. */
const defaultLimit = 12;

/**
 * Orders candidates for the sandbox: those whose program compiles and defines the entry point, in
 * their given (position) order, identical programs once. When none does, a single candidate
 * stands for the answer so that its failure is reported honestly: the first whose text `mentions`
 * the entry point (it did not compile: a `syntax_error`), else the first that compiles (it runs,
 * and fails without the entry point), else the first. `entry` null: compiling is enough.
 */
export async function selectCodeCandidates(
  candidates: CodeCandidate[],
  options: { analyzer: CodeAnalyzer; entry: EntryPoint | null; mentions: RegExp; limit?: number },
): Promise<CodeCandidate[]> {
  const seen = new Set<string>();
  const unique = candidates.filter((candidate) => {
    if (seen.has(candidate.program)) return false;
    seen.add(candidate.program);
    return true;
  });
  const definitions = unique.map((candidate) => candidate.definition ?? candidate.code);
  const distinct = [...new Set(definitions)];
  const answers = await options.analyzer.check(distinct, options.entry ?? { kind: "none" });
  const byDefinition = new Map(distinct.map((definition, index) => [definition, answers[index]]));
  const checks = definitions.map((definition) => byDefinition.get(definition)!);
  const defining = unique.filter(
    (_, index) => checks[index].compiles && (options.entry === null || checks[index].defines),
  );
  if (defining.length > 0) return defining.slice(0, options.limit ?? defaultLimit);
  const stand =
    unique.find((candidate) => options.mentions.test(candidate.definition ?? candidate.code)) ??
    unique.find((_, index) => checks[index].compiles) ??
    unique[0];
  return stand ? [stand] : [];
}
