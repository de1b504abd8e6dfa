import { codeAnalyzer, type CodeAnalyzer } from "../code/CodeAnalyzer.js";
import { findCodeSources } from "../code/findCodeSources.js";
import { selectCodeCandidates } from "../code/selectCodeCandidates.js";
import type { CodeCandidate } from "../scoreCodeCandidates.js";
import { testsStartedLine } from "../testsStartedMarker.js";
import { escapeRegExp } from "../text/escapeRegExp.js";
import type { MbppItem } from "./MbppItem.js";
import { tolerantAssertions } from "./tolerantAssertions.js";

const keywords = new Set("assert not and or in is if else lambda".split(" "));
/** Builtins the asserts wrap the call in (`assert set(f(x)) == ...`, `int(f(x))`). */
const wrappers = new Set(
  "abs all any bool dict float frozenset int len list map max min round set sorted str sum tuple type zip".split(
    " ",
  ),
);

/**
 * The function the asserts call: the first called name that is not a builtin or a method, or, when
 * the task's function shadows a builtin (task 126 defines `sum`), the first called builtin.
 */
export function mbppFunctionName(item: MbppItem): string | undefined {
  const called = [...(item.tests[0] ?? "").matchAll(/(?<![\w.])([A-Za-z_]\w*)\s*\(/g)]
    .map((match) => match[1])
    .filter((name) => !keywords.has(name));
  return called.find((name) => !wrappers.has(name)) ?? called[0];
}

/**
 * What the sanitizer must keep for the asserts: every name they use that the setup does not
 * define (the function, and e.g. a class the asserts construct).
 */
function namesTheTestsNeed(item: MbppItem): string[] {
  const setupNames = new Set(
    [...item.setup.matchAll(/^(?:def\s+|class\s+)?([A-Za-z_]\w*)\s*[=(:]/gm)].map((match) => match[1]),
  );
  const used = item.tests.join("\n").match(/[A-Za-z_]\w*/g) ?? [];
  return [...new Set(used)].filter((name) => !setupNames.has(name));
}

/**
 * Candidates of an MBPP response, in the order they are tried (`pass_mode` `<source>:<repair>`;
 * sources as in `findCodeSources`). Repairs of each source:
 * 1. `as_is`: setup, the code, the asserts.
 * 2. `numeric_tolerance`: as 1, `==` on floats compared with isclose.
 * 3. `setup_after_code`: the code first, then the setup, then the asserts (setup that uses or
 *    redefines a name the code defines must come after it).
 * Only programs that compile and define the function the asserts call run.
 */
export async function mbppCandidates(
  item: MbppItem,
  answer: string,
  analyzer: CodeAnalyzer = codeAnalyzer(),
): Promise<CodeCandidate[]> {
  const sources = await findCodeSources(answer, {
    analyzer,
    roots: namesTheTestsNeed(item),
    style: "function",
  });
  const setup = item.setup.replace(/\r\n?/g, "\n");
  const tests = item.tests.join("\n");
  const join = (...parts: string[]) => `${parts.filter((part) => part.trim()).join("\n\n")}\n`;
  const list: CodeCandidate[] = [];
  for (const { name, code } of sources) {
    const definition = join(setup, code);
    list.push({
      passMode: `${name}:as_is`,
      code,
      definition,
      program: join(setup, code, testsStartedLine, tests),
    });
    list.push({
      passMode: `${name}:numeric_tolerance`,
      code,
      definition,
      program: join(setup, code, testsStartedLine, tolerantAssertions(item.tests)),
    });
    if (setup.trim()) {
      list.push({
        passMode: `${name}:setup_after_code`,
        code,
        definition: join(code, setup),
        program: join(code, setup, testsStartedLine, tests),
      });
    }
  }
  const functionName = mbppFunctionName(item);
  return selectCodeCandidates(list, {
    analyzer,
    entry: functionName ? { kind: "function", name: functionName } : null,
    // The function's own name exactly: a helper such as `common_prefix_util` is not `common_prefix`.
    mentions: new RegExp(`^[ \\t]*def\\s+${functionName ? escapeRegExp(functionName) : "\\w+"}\\s*\\(`, "m"),
  });
}
