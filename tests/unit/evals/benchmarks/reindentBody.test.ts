import { describe, expect, it } from "vitest";
import { reindentBody } from "../../../../src-main/evals/benchmarks/text/reindentBody.js";

const expected =
  "    total = 0\n    for x in xs:\n        if x > 0:\n            total += x\n    return total";

describe("reindentBody", () => {
  it.each([
    ["zero-indented", "total = 0\nfor x in xs:\n    if x > 0:\n        total += x\nreturn total"],
    ["2-space", "  total = 0\n  for x in xs:\n    if x > 0:\n      total += x\n  return total"],
    ["tabs", "\ttotal = 0\n\tfor x in xs:\n\t\tif x > 0:\n\t\t\ttotal += x\n\treturn total"],
    [
      "mixed tabs and 4 spaces",
      "\ttotal = 0\n\tfor x in xs:\n\t    if x > 0:\n\t\t\ttotal += x\n    return total",
    ],
    ["already 4-space", expected],
  ])("re-indents a %s body to 4 spaces under a def", (_name, body) => {
    expect(reindentBody(body)).toBe(expected);
  });

  it("keeps blank lines blank", () => {
    expect(reindentBody("a = 1\n\nreturn a")).toBe("    a = 1\n\n    return a");
  });
});
