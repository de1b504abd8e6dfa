import { describe, expect, it } from "vitest";
import { extractChoiceLetter } from "../../../../src-main/evals/benchmarks/text/extractChoiceLetter.js";

const four = ["Paris", "London", "Berlin", "Madrid"];

describe("extractChoiceLetter", () => {
  it.each([
    ["B", "B", "leading"],
    ["b", "B", "leading"],
    ["(C)", "C", "leading"],
    ["b) London", "B", "leading"],
    ["D. Madrid is the capital of Spain.", "D", "leading"],
    ["**B**", "B", "leading"],
    ["The answer is (B).", "B", "answer_is"],
    ["The answer is B because London is in England.", "B", "answer_is"],
    ["After weighing each option, the correct answer is **C**.", "C", "answer_is"],
    ["Answer: d", "D", "answer_is"],
    ["Let me think. A is wrong, B is wrong.\nThe answer is (c)", "C", "answer_is"],
    ["Final answer: \\boxed{A}", "A", "boxed"],
    ["\\boxed{C}", "C", "boxed"],
    ["Looking at the options, I choose **D**. It fits best.", "D", "bold"],
    ["Considering all of them...\nC\n", "C", "alone"],
    ["I would go with option (A) here.", "A", "parenthesized"],
    ["Berlin", "C", "choice_text"],
    ["It is Madrid.", "D", "choice_text"],
  ])("%j → %s (%s)", (text, letter, rule) => {
    expect(extractChoiceLetter(text, four)).toEqual({ letter, rule });
  });

  it("does not take the article 'a' for an answer", () => {
    expect(extractChoiceLetter("a good question; I am not sure", four)).toBeNull();
    expect(extractChoiceLetter("The answer is a tricky one", four)).toBeNull();
  });

  it("ignores letters past the options", () => {
    expect(extractChoiceLetter("The answer is (E)", four)).toBeNull();
    expect(
      extractChoiceLetter(
        "The answer is (J)",
        Array.from({ length: 10 }, (_v, i) => `o${i}`),
      )?.letter,
    ).toBe("J");
  });
});
