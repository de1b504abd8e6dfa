/**
 * Printed by a candidate's program right before the benchmark's own tests. A failure after it is
 * the tests' verdict on the code; one before it came from the response's own top-level code (its
 * asserts, example usage), which is the less informative failure to report.
 */
export const testsStartedMarker = "__perch_tests_started__";
export const testsStartedLine = `print(${JSON.stringify(testsStartedMarker)}, flush=True)`;

/**
 * A candidate's program as the sandbox runs it: the candidate's part, then the tests from the
 * marker line on (the harness appends the marker after the candidate, so its last occurrence is
 * the harness's). The tests then run on pristine builtins (`SandboxRunRequest.tests`).
 */
export function splitAtTests(program: string): { code: string; tests?: string } {
  const at = program.lastIndexOf(`${testsStartedLine}\n`);
  if (at < 0 || (at > 0 && program[at - 1] !== "\n")) return { code: program };
  return { code: program.slice(0, at), tests: program.slice(at) };
}
