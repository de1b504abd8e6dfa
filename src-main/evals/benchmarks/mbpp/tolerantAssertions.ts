/**
 * Python that runs `tests` with every `assert a == b` compared by `math.isclose` (rel 1e-6,
 * abs 1e-9) when one side is a float, element by element inside lists, tuples and dicts of the
 * same shape. Anything else compares exactly as written, so a wrong answer still fails.
 * Names start with one underscore: two would be mangled inside the transformer class.
 */
export function tolerantAssertions(tests: readonly string[]): string {
  return `
import ast as _perch_ast
import math as _perch_math

def _perch_close(left, right):
    numbers = (int, float)
    if isinstance(left, float) or isinstance(right, float):
        if isinstance(left, numbers) and isinstance(right, numbers) and not isinstance(left, bool) and not isinstance(right, bool):
            return _perch_math.isclose(left, right, rel_tol=1e-6, abs_tol=1e-9)
        return left == right
    if isinstance(left, (list, tuple)) and type(left) is type(right) and len(left) == len(right):
        return all(_perch_close(a, b) for a, b in zip(left, right))
    if isinstance(left, dict) and isinstance(right, dict) and left.keys() == right.keys():
        return all(_perch_close(left[key], right[key]) for key in left)
    return left == right

class _PerchTolerance(_perch_ast.NodeTransformer):
    def visit_Assert(self, node):
        test = node.test
        if isinstance(test, _perch_ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], _perch_ast.Eq):
            call = _perch_ast.Call(_perch_ast.Name("_perch_close", _perch_ast.Load()), [test.left, test.comparators[0]], [])
            node.test = _perch_ast.copy_location(call, test)
        return node

exec(compile(_perch_ast.fix_missing_locations(_PerchTolerance().visit(_perch_ast.parse(${JSON.stringify(tests.join("\n"))}))), "tests", "exec"), globals())
`;
}
