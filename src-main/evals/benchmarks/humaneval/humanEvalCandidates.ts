import type { CodeCandidate } from "../scoreCodeCandidates.js";
import { dedent, trimBlankLines } from "../text/dedent.js";
import { escapeRegExp } from "../text/escapeRegExp.js";
import { pickCodeBlock } from "../text/extractCodeBlocks.js";
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
 * Repairs of a HumanEval response, in the fixed order they are tried (the first that passes is
 * its `pass_mode`):
 * 1. `as_is`: the response (reasoning removed) as a program.
 * 2. `extracted_block`: the best fenced block (last Python/bare block naming the entry point).
 * Then, when that code defines the entry point itself:
 * 3. `full_function`: the prompt's imports and helpers, then the code.
 * Otherwise the code is a body, appended to the prompt:
 * 3. `body_only`: as written.
 * 4. `normalized_indent`: re-indented to 4 spaces (tabs, 2 spaces, mixed, none).
 * 5. `top_level_indent`: every line indented by 4 (a body written at column 0).
 * Candidates that never name the entry point are skipped: they cannot define it.
 */
export function humanEvalCandidates(item: HumanEvalItem, answer: string): CodeCandidate[] {
  const block = pickCodeBlock(answer, item.entryPoint);
  const code = trimBlankLines(block ? block.code : answer);
  const entry = escapeRegExp(item.entryPoint);
  const prompt = item.prompt.endsWith("\n") ? item.prompt : `${item.prompt}\n`;
  const list: Omit<CodeCandidate, "program">[] = [{ passMode: "as_is", code: answer }];
  if (block) list.push({ passMode: "extracted_block", code });
  if (new RegExp(`^[ \\t]*def\\s+${entry}\\s*\\(`, "m").test(code)) {
    list.push({ passMode: "full_function", code: `${promptPreamble(item)}\n${dedent(code)}` });
  } else {
    list.push({ passMode: "body_only", code: `${prompt}${code}` });
    list.push({ passMode: "normalized_indent", code: `${prompt}${reindentBody(code)}` });
    const indented = code
      .split("\n")
      .map((line) => (line.trim() ? `    ${line}` : line))
      .join("\n");
    list.push({ passMode: "top_level_indent", code: `${prompt}${indented}` });
  }
  const harness = `\n\n${item.test}\n\ncheck(${item.entryPoint})\n`;
  return list
    .filter((candidate) => new RegExp(`\\b${entry}\\b`).test(candidate.code))
    .map((candidate) => ({ ...candidate, program: `${candidate.code}${harness}` }));
}
