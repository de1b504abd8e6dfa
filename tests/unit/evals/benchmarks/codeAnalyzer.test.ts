import { describe, expect, it } from "vitest";
import { CodeAnalyzer, codeAnalyzer } from "../../../../src-main/evals/benchmarks/code/CodeAnalyzer.js";
import { findCodeSources } from "../../../../src-main/evals/benchmarks/code/findCodeSources.js";
import { pythonCandidates } from "../../../../src-main/evals/scoring/pythonCandidates.js";

const analyzer = codeAnalyzer();
const regions = async (text: string) => (await analyzer.regions([text]))[0];
const sanitize = async (code: string, roots: string[], style: "function" | "stdin" = "function") =>
  (await analyzer.sanitize([code], roots, style))[0];

describe("unfenced code regions", () => {
  it("trims leading and trailing prose until the rest compiles, and finds usage after prose", async () => {
    const text =
      "Sure! Below is the code:\n\nimport math\n\ndef root(x):\n    return math.sqrt(x)\n\nThis returns the root.\n\nExample:\n\nprint(root(4))\nOutput";
    expect(await regions(text)).toEqual([
      "import math\n\ndef root(x):\n    return math.sqrt(x)",
      "print(root(4))",
    ]);
  });

  it("never cuts off a broken line of code: broken code has no region (it is a syntax error)", async () => {
    expect(await regions("Here:\n\ndef f(x):\n    y = x\n    return (\n\nThis is it.")).toEqual([]);
    expect(await regions("Here:\ndef f(x):\n    return x\nprint(f(2)")).toEqual([]);
    expect(await regions("Sure:\n\nimport math\ndef f(x)\n    return x\n\nDone.")).toEqual([]);
    // A good definition right after broken code is not split off either.
    expect(await regions("def f(x):\n    retur x +\n\ndef f(x):\n    return x")).toEqual([]);
  });

  it("finds code split by numbered explanations", async () => {
    const text = "1. Import:\nimport math\n2. Then:\ndef f(x):\n    return math.sqrt(x)\n\nHope this helps!";
    expect(await regions(text)).toEqual(["import math", "def f(x):\n    return math.sqrt(x)"]);
  });
});

describe("the sanitizer", () => {
  it("keeps imports, definitions and the assignments they need; drops asserts, prints, input and __main__", async () => {
    const code = [
      "import math",
      "LIMIT = 10",
      "SCALE = LIMIT * 2",
      "UNUSED = 3",
      "def f(x):",
      "    return math.sqrt(x) * SCALE",
      "print(f(4))",
      "assert f(4) == 40",
      "n = int(input())",
      "if __name__ == '__main__':",
      "    print(f(n))",
    ].join("\n");
    expect(await sanitize(code, ["f"])).toBe(
      "import math\nLIMIT = 10\nSCALE = LIMIT * 2\ndef f(x):\n    return math.sqrt(x) * SCALE",
    );
  });

  it("keeps decorators, nested definitions, multi-line statements and strings that contain `def`", async () => {
    const code = [
      "from functools import lru_cache",
      "TEMPLATE = '''",
      "def not_code(): pass",
      "'''",
      "@lru_cache(maxsize=None)",
      "def f(n):",
      "    def inner(k):",
      "        return k + 1",
      "    return inner(n) if TEMPLATE else 0",
      "result = f(",
      "    3,",
      ")",
      "print(result)",
    ].join("\n");
    expect(await sanitize(code, ["f"])).toBe(
      [
        "from functools import lru_cache",
        "TEMPLATE = '''\ndef not_code(): pass\n'''",
        "@lru_cache(maxsize=None)",
        "def f(n):",
        "    def inner(k):",
        "        return k + 1",
        "    return inner(n) if TEMPLATE else 0",
      ].join("\n"),
    );
  });

  it("keeps a name the tests use (MBPP), not a local that shadows a global", async () => {
    const code = "class Pair:\n    pass\nroot = build()\ndef f(root):\n    return root\nprint(f(root))";
    expect(await sanitize(code, ["f", "Pair"])).toBe("class Pair:\n    pass\ndef f(root):\n    return root");
  });

  it("leaves stdin programs whole (drops only bare names), and reports nothing for unchanged or broken code", async () => {
    expect(await sanitize("n = int(input())\nprint(n * 2)\nOutput", [], "stdin")).toBe(
      "n = int(input())\nprint(n * 2)",
    );
    expect(await sanitize("import os\ndef f():\n    return 1", ["f"])).toBeNull();
    expect(await sanitize("def f(:\n    return 1\nprint(f())", ["f"])).toBeNull();
  });
});

describe("program checks", () => {
  it("compiles with Python's compiler (return outside a function does not) and finds the entry point", async () => {
    expect(
      await analyzer.check(
        [
          "def f():\n    return 1",
          "return 1",
          "g = f",
          "class Solution:\n    def f(self):\n        return 1",
        ],
        { kind: "function", name: "f" },
      ),
    ).toEqual([
      { compiles: true, defines: true },
      { compiles: false, defines: false },
      { compiles: true, defines: false },
      { compiles: true, defines: false },
    ]);
    expect(
      await analyzer.check(["class Solution:\n    def f(self):\n        return 1"], {
        kind: "solution",
        name: "f",
      }),
    ).toEqual([{ compiles: true, defines: true }]);
    expect(
      await analyzer.check(["import sys\nprint(sys.stdin.read())", "print(3)"], { kind: "stdin" }),
    ).toEqual([
      { compiles: true, defines: true },
      { compiles: true, defines: false },
    ]);
  });
});

describe("findCodeSources", () => {
  it("lists blocks of any tag and unfenced regions in order, then joined and response, each also sanitized", async () => {
    const answer =
      "Intro:\n\nimport math\n\n```Python\ndef f(x):\n    return math.sqrt(x)\n\nprint(f(4))\n```\n\nUsage:\n```\nprint(f(9))\n```";
    const sources = await findCodeSources(answer, { analyzer, roots: ["f"], style: "function" });
    expect(sources.map((source) => source.name)).toEqual([
      "unfenced_1",
      "block_1",
      "block_1+sanitized",
      "block_2",
      "joined",
      "joined+sanitized",
      "response",
    ]);
    expect(sources.find((source) => source.name === "block_1+sanitized")!.code).toBe(
      "def f(x):\n    return math.sqrt(x)",
    );
    expect(sources.find((source) => source.name === "joined+sanitized")!.code).toBe(
      "import math\ndef f(x):\n    return math.sqrt(x)",
    );
  });
});

describe("the analyzer process", () => {
  it("is Perch's failure, not the model's, when it cannot run: the request rejects with a typed error", async () => {
    const broken = new CodeAnalyzer("/nonexistent/python3");
    await expect(broken.regions(["x = 1"])).rejects.toMatchObject({
      name: "PerchError",
      code: "internal_error",
    });
  });

  it("is restarted after it dies, and answers pipelined requests in order", async () => {
    const own = new CodeAnalyzer(pythonCandidates()[0]);
    expect(await own.regions(["a = 1"])).toEqual([["a = 1"]]);
    own.close();
    const answers = await Promise.all(["b = 2", "c = 3", "Hello there"].map((text) => own.regions([text])));
    expect(answers).toEqual([[["b = 2"]], [["c = 3"]], [[]]]);
    own.close();
  });
});
