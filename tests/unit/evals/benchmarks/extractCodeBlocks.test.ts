import { describe, expect, it } from "vitest";
import {
  extractCodeBlocks,
  fencedParts,
} from "../../../../src-main/evals/benchmarks/text/extractCodeBlocks.js";

describe("extractCodeBlocks", () => {
  it("reads python, py, python3 and bare fences with their languages", () => {
    const text = "a\n```python\nx = 1\n```\nb\n```py\ny = 2\n```\n```\nz = 3\n```\n~~~python3\nw = 4\n~~~";
    expect(extractCodeBlocks(text)).toEqual([
      { language: "python", code: "x = 1", closed: true },
      { language: "py", code: "y = 2", closed: true },
      { language: "", code: "z = 3", closed: true },
      { language: "python3", code: "w = 4", closed: true },
    ]);
  });

  it("keeps an unclosed block (a truncated response)", () => {
    expect(extractCodeBlocks("Here:\n```python\ndef f():\n    return 1\n")).toEqual([
      { language: "python", code: "def f():\n    return 1\n", closed: false },
    ]);
  });

  it("handles a fence after prose on the same line and code touching the closing fence", () => {
    expect(extractCodeBlocks("Sure, here it is: ```python\ndef f():\n    return 1```\nDone.")).toEqual([
      { language: "python", code: "def f():\n    return 1", closed: true },
    ]);
  });

  it("closes an open block when a new fence with a language starts", () => {
    const blocks = extractCodeBlocks("```python\na = 1\n```python\nb = 2\n```");
    expect(blocks.map((block) => block.code)).toEqual(["a = 1", "b = 2"]);
  });

  it("normalizes CRLF and keeps indentation inside the block", () => {
    expect(extractCodeBlocks("```python\r\nif x:\r\n\ty = 1\r\n```")[0].code).toBe("if x:\n\ty = 1");
  });
});

describe("fencedParts", () => {
  it("keeps the text around the blocks: before each block, then after the last", () => {
    const parts = fencedParts("Intro:\n```python\na = 1\n```\nMiddle\n```\nb\n```\nEnd");
    expect(parts.blocks.map((block) => block.code)).toEqual(["a = 1", "b"]);
    expect(parts.segments).toEqual(["Intro:\n", "Middle\n", "End"]);
  });

  it("keeps prose before a fence on the same line, and the whole text when there is no fence", () => {
    expect(fencedParts("Sure: ```python\nx = 1\n```").segments).toEqual(["Sure: ", ""]);
    expect(fencedParts("no fences\nhere")).toEqual({ blocks: [], segments: ["no fences\nhere"] });
  });
});
