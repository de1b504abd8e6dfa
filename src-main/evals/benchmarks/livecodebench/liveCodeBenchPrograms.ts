import type { LiveCodeBenchTest } from "./LiveCodeBenchItem.js";
import { liveCodeBenchPrelude } from "./liveCodeBenchPrelude.js";

/** A stdin/stdout problem: the solution runs as the main program with the test input on stdin. */
export function stdinProgram(code: string): string {
  return `${liveCodeBenchPrelude}\n\n${code}\n`;
}

/**
 * A functional (LeetCode) problem: the solution is loaded as a module (its `__main__` block does
 * not run); then, as the sandbox's tests, the method is called on `Solution()` with one JSON value per input line, and
 * the result compared with the expected JSON as LiveCodeBench's `grade_call_based` does: a tuple
 * result becomes a list, then Python `==` (no float tolerance: `3.00000004` is not `3`, the string
 * `"3.5"` is not `3.5`; `3.0 == 3` as in Python).
 */
export function functionalProgram(
  code: string,
  functionName: string,
  test: LiveCodeBenchTest,
): { code: string; tests: string } {
  // The comparison runs as the sandbox's tests: on builtins and modules (json) as they were
  // before the solution ran, whatever it rebound.
  const solution = `
__perch_scope = {"__name__": "solution"}
exec(compile(${JSON.stringify(liveCodeBenchPrelude)}, "prelude", "exec"), __perch_scope)
exec(compile(${JSON.stringify(code)}, "solution.py", "exec"), __perch_scope)
`;
  const tests = `
import json as __perch_json

__perch_name = ${JSON.stringify(functionName)}
__perch_args = [__perch_json.loads(line) for line in ${JSON.stringify(test.input)}.split("\\n") if line.strip()]
__perch_want = __perch_json.loads(${JSON.stringify(test.output)})
if "Solution" in __perch_scope:
    __perch_target = getattr(__perch_scope["Solution"](), __perch_name)
else:
    __perch_target = __perch_scope[__perch_name]
__perch_got = __perch_target(*__perch_args)
if isinstance(__perch_got, tuple):
    __perch_got = list(__perch_got)
if not (__perch_got == __perch_want):
    raise AssertionError("expected " + __perch_json.dumps(__perch_want)[:200] + ", got " + repr(__perch_got)[:200])
`;
  return { code: solution, tests };
}
