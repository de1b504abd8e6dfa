"""The code analyzer's functions (src-main/evals/benchmarks/code/codeAnalyzer.py), imported without
starting its request loop or its own rlimits."""
import unittest

from loadSource import load_source

analyzer = load_source("src-main/evals/benchmarks/code/codeAnalyzer.py", "code_analyzer")


class CompileTest(unittest.TestCase):
    def test_compiles_answers_none_or_the_syntax_error_and_a_spent_budget_reads_as_not_compiling(self):
        self.assertIsNone(analyzer.compiles("x = 1\n   \n"))
        self.assertIsInstance(analyzer.compiles("def f(:\n    pass"), SyntaxError)
        budget = analyzer.Budget()
        budget.left = 1
        self.assertIsNone(analyzer.compiles("x = 1", budget))
        self.assertEqual(str(analyzer.compiles("x = 1", budget)), "parse budget spent")

    def test_meaningful_code_is_more_than_bare_names_and_constants(self):
        self.assertFalse(analyzer.meaningful("Output"))
        self.assertFalse(analyzer.meaningful("'a string'\n42"))
        self.assertTrue(analyzer.meaningful("x = 1"))
        self.assertFalse(analyzer.meaningful("x = ("))

    def test_prose_is_an_unindented_line_not_shaped_like_a_statement(self):
        self.assertTrue(analyzer.prose("Here is the code:"))
        self.assertFalse(analyzer.prose("def f(x):"))
        self.assertFalse(analyzer.prose("    return x"))
        self.assertFalse(analyzer.prose("result = f(2)"))
        self.assertFalse(analyzer.prose(""))


class RegionsTest(unittest.TestCase):
    def test_trims_prose_around_code_and_finds_each_region(self):
        text = "Sure! Here it is:\n\ndef f(x):\n    return x * 2\n\nThis doubles x.\n\nprint(f(4))\nOutput"
        self.assertEqual(analyzer.regions(text, analyzer.Budget()), ["def f(x):\n    return x * 2", "print(f(4))"])

    def test_broken_code_has_no_region(self):
        self.assertEqual(analyzer.regions("Here:\ndef f(x):\n    return (\n\nDone.", analyzer.Budget()), [])


class SanitizeTest(unittest.TestCase):
    def test_keeps_definitions_and_the_assignments_they_use_and_drops_calls(self):
        source = "import math\nLIMIT = 3\nUNUSED = input()\ndef f(x):\n    return math.sqrt(x) + LIMIT\nprint(f(4))\nassert f(4) == 5"
        self.assertEqual(
            analyzer.sanitize(source, ["f"], "function"),
            "import math\nLIMIT = 3\ndef f(x):\n    return math.sqrt(x) + LIMIT",
        )

    def test_nothing_to_drop_or_broken_code_gives_none(self):
        self.assertIsNone(analyzer.sanitize("def f():\n    return 1", ["f"], "function"))
        self.assertIsNone(analyzer.sanitize("def f(:", ["f"], "function"))

    def test_stdin_style_keeps_the_program_but_drops_bare_names(self):
        source = "n = int(input())\nprint(n * 2)\nOutput"
        self.assertEqual(analyzer.sanitize(source, [], "stdin"), "n = int(input())\nprint(n * 2)")


class CheckTest(unittest.TestCase):
    def test_function_entry_points_must_be_bound_at_the_top_level(self):
        self.assertEqual(analyzer.check("def f():\n    pass", {"kind": "function", "name": "f"}), {"compiles": True, "defines": True})
        self.assertEqual(analyzer.check("def g():\n    pass", {"kind": "function", "name": "f"}), {"compiles": True, "defines": False})
        self.assertEqual(analyzer.check("try:\n    from m import f\nexcept ImportError:\n    f = None", {"kind": "function", "name": "f"})["defines"], True)
        self.assertEqual(analyzer.check("def f(:", {"kind": "function", "name": "f"}), {"compiles": False, "defines": False})

    def test_solution_and_stdin_and_none_entry_points(self):
        solution = "class Solution:\n    def twoSum(self, nums, target):\n        return []"
        self.assertTrue(analyzer.check(solution, {"kind": "solution", "name": "twoSum"})["defines"])
        self.assertFalse(analyzer.check(solution, {"kind": "solution", "name": "other"})["defines"])
        self.assertTrue(analyzer.check("import sys\ndata = sys.stdin.read()", {"kind": "stdin"})["defines"])
        self.assertFalse(analyzer.check("print(1)", {"kind": "stdin"})["defines"])
        self.assertEqual(analyzer.check("print(1)", {"kind": "none"}), {"compiles": True, "defines": False})


class AnswerTest(unittest.TestCase):
    def test_answers_each_op_and_rejects_an_unknown_one(self):
        self.assertEqual(analyzer.answer({"op": "regions", "segments": ["x = 1"]}), {"regions": [["x = 1"]]})
        self.assertEqual(
            analyzer.answer({"op": "check", "programs": ["x = 1"], "entry": {"kind": "none"}}),
            {"checks": [{"compiles": True, "defines": False}]},
        )
        with self.assertRaises(ValueError):
            analyzer.answer({"op": "run"})


if __name__ == "__main__":
    unittest.main()
