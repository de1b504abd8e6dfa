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
 *
 * When more than one block or unfenced region defines the entry point and their definitions differ
 * (sanitized, blank lines and trailing blanks aside), each such place is a `rival`: the answer
 * passes only if every rival does (`scoreCodeCandidates`), so a wrong version beside a right one
 * ("a first version ... a simpler final version") cannot pass on the other's merit.
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
  if (defining.length > 0) return withRivals(defining, options.limit ?? defaultLimit);
  const stand =
    unique.find((candidate) => options.mentions.test(candidate.definition ?? candidate.code)) ??
    unique.find((_, index) => checks[index].compiles) ??
    unique[0];
  return stand ? [stand] : [];
}

/** `block_2` of `block_2:as_is` and `block_2+sanitized:full_function`; undefined for `joined` and `response`. */
function placeOf(candidate: CodeCandidate): { place: string; sanitized: boolean } | undefined {
  const match = /^((?:block|unfenced)_\d+)(\+sanitized)?:/.exec(candidate.passMode);
  return match ? { place: match[1]!, sanitized: match[2] !== undefined } : undefined;
}

const normalized = (code: string) =>
  code
    .split("\n")
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .join("\n");

/** The first `limit` candidates, every rival place marked and kept (up to 3 candidates each). */
function withRivals(defining: CodeCandidate[], limit: number): CodeCandidate[] {
  // A place's definition: its sanitized form when sanitizing changed it (usage and prints dropped).
  const definitions = new Map<string, { code: string; sanitized: boolean }>();
  for (const candidate of defining) {
    const at = placeOf(candidate);
    if (!at) continue;
    const known = definitions.get(at.place);
    if (!known || (at.sanitized && !known.sanitized)) {
      definitions.set(at.place, { code: normalized(candidate.code), sanitized: at.sanitized });
    }
  }
  const firstPlaceOf = new Map<string, string>();
  for (const [place, { code }] of definitions) if (!firstPlaceOf.has(code)) firstPlaceOf.set(code, place);
  if (firstPlaceOf.size < 2) return defining.slice(0, limit);
  const rivalOf = (candidate: CodeCandidate) => {
    const at = placeOf(candidate);
    return at ? firstPlaceOf.get(definitions.get(at.place)!.code) : undefined;
  };
  const marked = defining.map((candidate) => {
    const rival = rivalOf(candidate);
    return rival ? { ...candidate, rival } : candidate;
  });
  const chosen = marked.slice(0, limit);
  for (const rival of firstPlaceOf.values()) {
    if (chosen.some((candidate) => candidate.rival === rival)) continue;
    chosen.push(...marked.filter((candidate) => candidate.rival === rival).slice(0, 3));
  }
  return chosen;
}
