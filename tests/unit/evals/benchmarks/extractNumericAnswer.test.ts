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
    // Markdown around the words, a heading, an escaped dollar.
    ["**Answer**: $18 (from 9 eggs)", "18", "answer_is"],
    ["**Final Answer:** 18", "18", "answer_is"],
    ["## Final Answer\n\n**18**", "18", "answer_is"],
    ["Final Answer\n3 bolts (2 blue + 1 white)", "3", "answer_is"],
    ["Therefore the answer is: **$1,234.50**", "1234.5", "answer_is"],
    ["The answer is \\$18.", "18", "answer_is"],
    // A worked expression states its result; a fraction is divided out.
    ["The answer is 9 * 2 = 18", "18", "answer_is"],
    ["Answer: 12 x 3 = 36 cookies", "36", "answer_is"],
    ["The answer is 9 × $2 = $18 a day.", "18", "answer_is"],
    ["The answer is 3/4.", "0.75", "answer_is"],
    // The value after the last "=", whatever the operators (LaTeX too), brackets or fractions.
    ["The answer is: $9 \\times 2 = 18$", "18", "answer_is"],
    ["\\boxed{2 \\times 9 = 18}", "18", "boxed"],
    ["The answer is $9 \\cdot 2 = 18$", "18", "answer_is"],
    ["The answer is 36 \\div 2 = 18", "18", "answer_is"],
    ["The answer is 2 * (16 - 3 - 4) = 18.", "18", "answer_is"],
    ["The answer is \\left(16 - 3 - 4\\right) \\times 2 = 18", "18", "answer_is"],
    ["The answer is 1/2 * 36 = 18.", "18", "answer_is"],
    ["The answer is \\frac{1}{2} \\times 36 = 18", "18", "answer_is"],
    ["The answer is 16 - 3 - 4 = 9 eggs * $2 = $18.", "18", "answer_is"],
    ["The answer is 10/2 = 5", "5", "answer_is"],
    // Not a worked expression: the stated number.
    ["The answer is 18. (Check: 16 - 3 - 4 = 9, 9 * 2 = 18)", "18", "answer_is"],
    ["The answer is 18\n\nLet me verify: 16-3-4 = 9", "18", "answer_is"],
    ["\\boxed{\\frac{3}{4}}", "0.75", "boxed"],
    // LaTeX thousands separators.
    ["\\boxed{1{,}234}", "1234", "boxed"],
    ["answer: 1\\,234", "1234", "answer_is"],
    // MATH-style: a comma, then LaTeX's negative thin space (Qwen-Math, DeepSeek write it).
    ["The final answer is $\\boxed{1,\\!080}$.", "1080", "boxed"],
    ["The answer is $10,\\!000,\\!000$", "10000000", "answer_is"],
    // An answer tag states the answer; the explanation after it does not.
    ["<answer>18</answer>\nI used 3 steps.", "18", "answer_is"],
    ["She sells 9 eggs at $2.\n<answer>\n**18**\n</answer>\n(2 checks)", "18", "answer_is"],
    // A mixed number is its whole and its fraction; a line after the answer is not a fraction of it.
    ["The answer is 3 1/2 cups.", "3.5", "answer_is"],
    ["\\boxed{2\\frac{1}{4}}", "2.25", "boxed"],
    ["The answer is 18\n1/2 of them were sold, 9.", "18", "answer_is"],
    ["The answer is 5 and 1/2 hours.", "5.5", "answer_is"],
    // Unicode fractions, alone or after a whole, and the fraction slash.
    ["The answer is 3½ cups.", "3.5", "answer_is"],
    ["The answer is ¾ of a pizza.", "0.75", "answer_is"],
    ["#### 2¼", "2.25", "hashes"],
    ["The answer is 1\u20442", "0.5", "answer_is"],
    // Full-width digits and punctuation.
    ["The answer is １８.", "18", "answer_is"],
    ["Answer：＄１，０８０", "1080", "answer_is"],
    // A base model that goes on to invent the next question answered before it.
    ["9 eggs at $2.\n#### 18\n\nQuestion: Bob has 3 bolts. How many?\n#### 3", "18", "hashes"],
    ["So she makes $18.\n\nQuestion: Bob has 3 bolts. How many? He has 3.", "18", "last_number"],
    // "answer is" not followed by the answer: an earlier statement or the last number.
    ["The answer isn't 5; it is 6.", "6", "last_number"],
    // A markdown bullet is not a minus sign; a minus sign still is.
    ["Answer:\n- 18", "18", "answer_is"],
    ["Steps:\n- 16 - 3 - 4 = 9 eggs\n- 9 * 2 = 18\n\nAnswer:\n- 18", "18", "answer_is"],
    ["#### - 10", "-10", "hashes"],
    ["Answer:\n-18", "-18", "answer_is"],
    // Spoken signs, not a subtraction.
    ["The answer is minus 10.", "-10", "answer_is"],
    ["The temperature ends at negative 3 degrees.", "-3", "last_number"],
    ["The answer is 20 minus 5 = 15", "15", "answer_is"],
    // Thousands set off by spaces.
    ["The answer is 70 000.", "70000", "answer_is"],
    ["The answer is 70\u202f000.", "70000", "answer_is"],
    ["#### 1 234 567", "1234567", "hashes"],
  ])("%j → %s by %s", (text, value, rule) => {
    expect(extractNumericAnswer(text)).toEqual({ value, rule });
  });

  it("finds no answer in a range or a clock time, stated or the text's last number", () => {
    for (const hedge of [
      "The answer is 18-20.",
      "The answer is 18 – 20.",
      "The answer is 18–20",
      "The answer is 18 to 20.",
      "The answer is 18:00.",
      "The answer is 19:20",
      "#### 18-20",
      "Answer: 18-20",
      "It takes 18-20 minutes.",
      "She leaves at 19:20",
    ])
      expect(extractNumericAnswer(hedge), hedge).toBeNull();
    // A later statement still answers; a subtraction worked out is no range.
    expect(extractNumericAnswer("The answer is 18-20. No: the answer is 19.")?.value).toBe("19");
    expect(extractNumericAnswer("She had 20 - 2 = 18 left.")?.value).toBe("18");
    expect(extractNumericAnswer("The count went from 18 to 20")?.value).toBe("20");
    expect(extractNumericAnswer("Step 2: 20")?.value).toBe("20");
  });

  it("reads a long sum that is no worked expression without exponential backtracking", () => {
    // Each blank could be read two ways before: 2^200 tries, the scoring worker stuck for good.
    expect(extractNumericAnswer(`The answer is ${"1 + ".repeat(200)}x`)?.value).toBe("1");
    expect(extractNumericAnswer(`The answer is ${"2 * ".repeat(200)}3 = 18`)?.value).toBe("18");
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
