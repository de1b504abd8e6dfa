import type { CodeCandidate } from "../scoreCodeCandidates.js";
import { trimBlankLines } from "../text/dedent.js";
import { pickCodeBlock } from "../text/extractCodeBlocks.js";
import type { MbppItem } from "./MbppItem.js";
import { tolerantAssertions } from "./tolerantAssertions.js";

/** The function the asserts call: what the response's code must define. */
export function mbppFunctionName(item: MbppItem): string | undefined {
  return /assert\s+(?:not\s+)?\(?\s*(?:[\w.]+\()*?([A-Za-z_]\w*)\s*\(/.exec(item.tests[0] ?? "")?.[1];
}

/**
 * Repairs of an MBPP response, in the fixed order they are tried:
 * 1. `as_is`: setup, the response (reasoning removed), the asserts.
 * 2. `extracted_block`: setup, the best fenced block, the asserts.
 * 3. `numeric_tolerance`: as 2 (or 1 without a block), `==` on floats compared with isclose.
 * 4. `setup_after_code`: the code first, then the setup, then the asserts (setup that redefines
 *    a name the code also defines must win).
 */
export function mbppCandidates(item: MbppItem, answer: string): CodeCandidate[] {
  const block = pickCodeBlock(answer, mbppFunctionName(item));
  const best = trimBlankLines(block ? block.code : answer);
  const tests = item.tests.join("\n");
  const join = (...parts: string[]) => `${parts.filter((part) => part.trim()).join("\n\n")}\n`;
  const list: CodeCandidate[] = [
    { passMode: "as_is", code: answer, program: join(item.setup, answer, tests) },
  ];
  if (block) list.push({ passMode: "extracted_block", code: best, program: join(item.setup, best, tests) });
  list.push({
    passMode: "numeric_tolerance",
    code: best,
    program: join(item.setup, best, tolerantAssertions(item.tests)),
  });
  if (item.setup.trim())
    list.push({ passMode: "setup_after_code", code: best, program: join(best, item.setup, tests) });
  return list;
}
