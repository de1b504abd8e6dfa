/**
 * Python that runs `tests` with every `assert a == b` compared by `math.isclose` (rel 1e-6,
 * abs 1e-9) when one side is a float, element by element inside lists, tuples and dicts of the
 * same shape. Anything else compares exactly as written, so a wrong answer still fails.
 */
export function tolerantAssertions(tests: readonly string[]): string {
  return `
import ast as __perch_ast
import math as __perch_math

def __perch_close(left, right):
    numbers = (int, float)
    if isinstance(left, float) or isinstance(right, float):
        if isinstance(left, numbers) and isinstance(right, numbers) and not isinstance(left, bool) and not isinstance(right, bool):
            return __perch_math.isclose(left, right, rel_tol=1e-6, abs_tol=1e-9)
        return left == right
    if isinstance(left, (list, tuple)) and type(left) is type(right) and len(left) == len(right):
        return all(__perch_close(a, b) for a, b in zip(left, right))
    if isinstance(left, dict) and isinstance(right, dict) and left.keys() == right.keys():
        return all(__perch_close(left[key], right[key]) for key in left)
    return left == right

class __PerchTolerance(__perch_ast.NodeTransformer):
    def visit_Assert(self, node):
        test = node.test
        if isinstance(test, __perch_ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], __perch_ast.Eq):
            call = __perch_ast.Call(__perch_ast.Name("__perch_close", __perch_ast.Load()), [test.left, test.comparators[0]], [])
            node.test = __perch_ast.copy_location(call, test)
        return node

exec(compile(__perch_ast.fix_missing_locations(__PerchTolerance().visit(__perch_ast.parse(${JSON.stringify(tests.join("\n"))}))), "tests", "exec"), globals())
`;
}
