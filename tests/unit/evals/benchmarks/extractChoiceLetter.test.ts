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
    // An answer tag (reasoning models, answer-format prompts) and a letter in square brackets.
    ["<answer>C</answer>", "C", "answer_is"],
    ["Paris is in France, London in England.\n<answer>\nC\n</answer>", "C", "answer_is"],
    ["The answer is [C]", "C", "answer_is"],
    ["Answer: [A]", "A", "answer_is"],
    // Full-width forms and lenticular brackets, as models write in a CJK context.
    ["Answer：B", "B", "answer_is"],
    ["The answer is Ｂ", "B", "answer_is"],
    ["The answer is ［B］", "B", "answer_is"],
    ["【B】", "B", "leading"],
    ["The answer is （C）.", "C", "answer_is"],
    ["Looking at the options, I choose **D**. It fits best.", "D", "answer_is"],
    ["Looking at the options, **D** fits best.", "D", "bold"],
    ["Considering all of them...\nC\n", "C", "alone"],
    ["I would go with option (A) here.", "A", "answer_is"],
    ["Maybe (A), given the second clause.", "A", "parenthesized"],
    // The correct-option phrasings.
    ["The correct option is C.", "C", "answer_is"],
    ["C is the correct answer.", "C", "answer_is"],
    ["Option C is correct.", "C", "answer_is"],
    ["The correct choice is B.", "B", "answer_is"],
    ["I'd go with B.", "B", "answer_is"],
    ["Among the options, D is right.", "D", "answer_is"],
    ["The answer is A because Paris is the capital.", "A", "answer_is"],
    ["Answer: A is correct.", "A", "answer_is"],
    // More ways of naming the letter.
    ["Option C", "C", "leading"],
    ["Choice C", "C", "leading"],
    ["So, I'd choose C.", "C", "answer_is"],
    ["Therefore, C.", "C", "answer_is"],
    ["Hence the answer should be C.", "C", "answer_is"],
    ["The answer would be C.", "C", "answer_is"],
    ["Answer - C", "C", "answer_is"],
    ["A good choice is C.", "C", "answer_is"],
    // A later statement corrects an earlier one, whichever phrasing each uses.
    ["The answer is B. Actually, C is correct.", "C", "answer_is"],
    ["B is the correct answer. Wait, no: the answer is D.", "D", "answer_is"],
    ["Option A is right for the first part, but the final answer is (B).", "B", "answer_is"],
    // Hedges and emphasis, quotes, "X is the answer", "choice: X", "I would say X", "It is X".
    ["The answer is likely C.", "C", "answer_is"],
    ["The answer is probably C.", "C", "answer_is"],
    ["The answer is definitely C.", "C", "answer_is"],
    ["The correct answer is therefore C.", "C", "answer_is"],
    ["The answer is 'C'.", "C", "answer_is"],
    ['The answer is "C".', "C", "answer_is"],
    ["The answer is “C”.", "C", "answer_is"],
    ["C is the answer.", "C", "answer_is"],
    ["My choice: C", "C", "answer_is"],
    ["Choice: B", "B", "answer_is"],
    ["I would say A.", "A", "answer_is"],
    ["I'd say C", "C", "answer_is"],
    ["It is C.", "C", "answer_is"],
    ["Answer: Not B. The correct one is D.", "D", "answer_is"],
    // Negated letters are skipped; the one stated after them counts.
    ["The answer is not A, it's C.", "C", "answer_is"],
    ["The answer isn't B. It is D.", "D", "answer_is"],
    ["The answer is neither A nor B, but C.", "C", "answer_is"],
    ["The answer is not A but C.", "C", "answer_is"],
    ["The answer would not be A; it is C.", "C", "answer_is"],
    ["A is not the answer; C is the answer.", "C", "answer_is"],
    // "the best is X"; a letter that opens a list or a verdict on it is not the one chosen.
    ["Both A and C could work, but the best is C.", "C", "answer_is"],
    ["The right would be B.", "B", "answer_is"],
    ["The answer is C, and B is wrong.", "C", "answer_is"],
    ["Answer: A and B are wrong, so the answer is C.", "C", "answer_is"],
    ["Answer: A and B are wrong; C", "C", "answer_is"],
    ["A, B and D are incorrect. So C.", "C", "answer_is"],
    // "A" and "I" as English words after "Answer:" are not letters.
    ["Answer: A good case can be made for (C).", "C", "parenthesized"],
    ["Final answer: A careful reading shows option C is right.", "C", "answer_is"],
    // Negated mentions do not count.
    ["It can't be Paris or London, so Berlin.", "C", "choice_text"],
    ["Berlin", "C", "choice_text"],
    ["It is Madrid.", "D", "choice_text"],
  ])("%j → %s (%s)", (text, letter, rule) => {
    expect(extractChoiceLetter(text, four)).toEqual({ letter, rule });
  });

  it("does not take the article 'a' for an answer", () => {
    expect(extractChoiceLetter("a good question; I am not sure", four)).toBeNull();
    expect(extractChoiceLetter("The answer is a tricky one", four)).toBeNull();
  });

  it("does not take a letter from ordinary words, a negation, a condition or a list", () => {
    for (const text of [
      "It is a good choice",
      "The answer is likely a trick.",
      "I would say a few words first.",
      "The answer is not A.",
      "The answer is neither A nor B.",
      "The answer: neither A nor B; the question is flawed.",
      "It is A or B, I am unsure.",
      "I would say A is wrong.",
      "It is D-Day.",
      "Whether it is A or C depends.",
      "It is B, C and D that are wrong.",
      // Not "A": the answer names a list, or a verdict against the letter.
      "The answer is A or B.",
      "Answer: A is incorrect",
      "The best is yet to come.",
    ])
      expect(extractChoiceLetter(text, four), text).toBeNull();
    expect(extractChoiceLetter("If it is C, then London would be the capital.", four)?.rule).toBe(
      "choice_text",
    );
    expect(extractChoiceLetter("C is the answer to another question; here it is D.", four)?.letter).toBe("D");
  });

  it("reads a long run of blanks without catastrophic backtracking", () => {
    // 1000 spaces took about a minute before (nested `\s*` in the patterns).
    expect(extractChoiceLetter(`${" ".repeat(5000)}x`, four)).toBeNull();
    expect(extractChoiceLetter(`The answer is${" ".repeat(5000)}C`, four)?.letter).toBe("C");
  });

  it("does not take a negated choice, or 'I' as a word among ten options", () => {
    expect(
      extractChoiceLetter("The answer is not Paris; the capital in question is in Germany.", four),
    ).toBeNull();
    const ten = Array.from({ length: 10 }, (_v, i) => `o${i}`);
    expect(extractChoiceLetter("Answer: I think the correct option is (C).", ten)?.letter).toBe("C");
    expect(extractChoiceLetter("Answer: I believe it is B.", ten)?.letter).not.toBe("I");
    expect(extractChoiceLetter("The answer is I because o8 fits.", ten)?.letter).toBe("I");
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

describe("extractChoiceLetter with full-width choices", () => {
  it("matches a choice's text whether the answer or the choice is written full-width", () => {
    expect(extractChoiceLetter("Ｂｅｒｌｉｎ", four)).toEqual({ letter: "C", rule: "choice_text" });
    expect(extractChoiceLetter("Berlin", ["Paris", "London", "Ｂｅｒｌｉｎ", "Madrid"])).toEqual({
      letter: "C",
      rule: "choice_text",
    });
  });
});
