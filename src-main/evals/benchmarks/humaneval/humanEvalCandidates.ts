import { codeAnalyzer, type CodeAnalyzer } from "../code/CodeAnalyzer.js";
import { findCodeSources } from "../code/findCodeSources.js";
import { selectCodeCandidates } from "../code/selectCodeCandidates.js";
import type { CodeCandidate } from "../scoreCodeCandidates.js";
import { testsStartedLine } from "../testsStartedMarker.js";
import { dedent } from "../text/dedent.js";
import { escapeRegExp } from "../text/escapeRegExp.js";
import { reindentBody } from "../text/reindentBody.js";
import type { HumanEvalItem } from "./HumanEvalItem.js";

/** The prompt up to the entry point's `def`: its imports and helper functions. */
function promptPreamble(item: HumanEvalItem): string {
  const def = new RegExp(`^def\\s+${escapeRegExp(item.entryPoint)}\\s*\\(`, "m").exec(item.prompt);
  if (def) return item.prompt.slice(0, def.index);
  return item.prompt
    .split("\n")
    .filter((line) => /^(import|from)\s/.test(line))
    .join("\n");
}

/**
 * Candidates of a HumanEval response, in the order they are tried (the first that passes is its
 * `pass_mode`, `<source>:<repair>`). Sources are every fenced block, unfenced code region, their
 * join and the whole response, each also sanitized (`findCodeSources`). Repairs of a source:
 * - when it defines the entry point: `as_is` (the code itself), then `full_function` (the
 *   prompt's imports and helpers first);
 * - when it is not a module on its own (a function body), appended to the prompt: `body_only`
 *   as written, `normalized_indent` (re-indented to 4 spaces from tabs, 2 spaces, mixed, none),
 *   `top_level_indent` (every line indented by 4: a body written at column 0);
 * - otherwise (usage, tests, another function): `as_is`, tried only when nothing defines the
 *   entry point, so the failure is reported honestly.
 * Only programs that compile and define the entry point run (`selectCodeCandidates`).
 */
export async function humanEvalCandidates(
  item: HumanEvalItem,
  answer: string,
  analyzer: CodeAnalyzer = codeAnalyzer(),
): Promise<CodeCandidate[]> {
  const sources = await findCodeSources(answer, { analyzer, roots: [item.entryPoint], style: "function" });
  const defines = new RegExp(`^[ \\t]*def\\s+${escapeRegExp(item.entryPoint)}\\s*\\(`, "m");
  const prompt = item.prompt.endsWith("\n") ? item.prompt : `${item.prompt}\n`;
  const list: Omit<CodeCandidate, "program">[] = [];
  for (const source of sources) {
    const repair = (name: string, code: string) => list.push({ passMode: `${source.name}:${name}`, code });
    if (defines.test(source.code)) {
      repair("as_is", source.code);
      repair("full_function", `${promptPreamble(item)}\n${dedent(source.code)}`);
    } else if (!source.compiles) {
      repair("body_only", `${prompt}${source.raw}`);
      repair("normalized_indent", `${prompt}${reindentBody(source.raw)}`);
      const indented = source.raw
        .split("\n")
        .map((line) => (line.trim() ? `    ${line}` : line))
        .join("\n");
      repair("top_level_indent", `${prompt}${indented}`);
    } else {
      repair("as_is", source.code);
    }
  }
  const harness = `\n\n${testsStartedLine}\n${item.test}\n\ncheck(${item.entryPoint})\n`;
  return selectCodeCandidates(
    list.map((candidate) => ({ ...candidate, program: `${candidate.code}${harness}` })),
    { analyzer, entry: { kind: "function", name: item.entryPoint }, mentions: defines },
  );
}
