import { describe, expect, it } from "vitest";
import {
  extractNumericAnswer,
  normalizeNumber,
  sameNumber,
} from "../../../../src-main/evals/benchmarks/text/extractNumericAnswer.js";

describe("normalizeNumber", () => {
  it.each([
    ["$1,000", "1000"],
    ["18.0", "18"],
    ["18.", "18"],
    ["-3.50", "-3.5"],
    ["−7", "-7"],
    ["$-4", "-4"],
    [".5", "0.5"],
    ["12345678901234567890", "12345678901234567890"],
  ])("%s → %s", (raw, expected) => {
    expect(normalizeNumber(raw)).toBe(expected);
  });

  it("rejects what is not a number", () => {
    expect(normalizeNumber("twelve")).toBeNull();
  });
});

describe("extractNumericAnswer", () => {
  it.each([
    ["Work... 5 + 13 = 18\n#### 18", "18", "hashes"],
    ["so \\boxed{1,250} dollars. Check: 3 items", "1250", "boxed"],
    ["Therefore, the answer is $15.00. (We used 3 steps.)", "15", "answer_is"],
    ["The final answer: 42", "42", "answer_is"],
    ["She has 3 apples and buys 4, so 7 apples.", "7", "last_number"],
    ["#### 5\nThe answer is 6", "5", "hashes"],
  ])("%j → %s by %s", (text, value, rule) => {
    expect(extractNumericAnswer(text)).toEqual({ value, rule });
  });

  it("finds nothing in a response without numbers", () => {
    expect(extractNumericAnswer("I am not sure.")).toBeNull();
  });

  it("compares numerically", () => {
    expect(sameNumber("18", "18")).toBe(true);
    expect(sameNumber("0.5", "0.50")).toBe(true);
    expect(sameNumber("18", "19")).toBe(false);
  });
});
