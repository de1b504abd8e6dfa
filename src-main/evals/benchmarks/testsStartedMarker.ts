/**
 * Printed by a candidate's program right before the benchmark's own tests. A failure after it is
 * the tests' verdict on the code; one before it came from the response's own top-level code (its
 * asserts, example usage), which is the less informative failure to report.
 */
export const testsStartedMarker = "__perch_tests_started__";
export const testsStartedLine = `print(${JSON.stringify(testsStartedMarker)}, flush=True)`;
