import { escapeRegExp } from "./escapeRegExp.js";

/** How a multiple-choice letter was found, most explicit first. */
export type ChoiceRule =
  "answer_is" | "boxed" | "leading" | "bold" | "alone" | "parenthesized" | "choice_text";

export const choiceLetters = "ABCDEFGHIJ";

/**
 * The letter a response chose among `choices` (A, B, ...). Robust to "The answer is (B)",
 * `**B**`, `\boxed{B}`, "b)", a leading "C. Paris" and a trailing explanation. A lowercase letter
 * counts only when it is set off ("b)", "(b)", "b." or alone) so the article "a" is not an answer.
 * Null when nothing names a letter.
 */
export function extractChoiceLetter(
  text: string,
  choices: readonly string[],
): { letter: string; rule: ChoiceRule } | null {
  const range = `A-${choiceLetters[choices.length - 1]}`;
  const lower = range.toLowerCase();
  // An uppercase letter not followed by another letter, or a lowercase one that is set off.
  const letter = String.raw`(?:\(?\s*([${range}])(?![A-Za-z])\s*\)?|\(([${lower}])\)|([${lower}])(?=[.):]|\s*$))`;
  const patterns: [ChoiceRule, RegExp][] = [
    [
      "answer_is",
      new RegExp(
        String.raw`(?:[Aa]nswer|ANSWER)(?:\s+is)?\s*(?:[:=]|is)?\s*(?:[Oo]ption|[Cc]hoice)?\s*[*_]*\s*${letter}`,
        "gm",
      ),
    ],
    ["boxed", new RegExp(String.raw`\\boxed\{\s*(?:\\text\{)?\s*${letter}`, "g")],
    // Set off at the very start: "B", "B.", "(b)", "**C:** because...", "D - Paris".
    [
      "leading",
      new RegExp(String.raw`^\s*[*_(\[]*\s*([${range}${lower}])\s*[*_)\]]*\s*(?:[.:)\-–—]|\n|$)`, "g"),
    ],
    ["bold", new RegExp(String.raw`\*\*\s*\(?([${range}])\)?\s*(?:[.:)][^*\n]*)?\*\*`, "g")],
    ["alone", new RegExp(String.raw`^\s*[*_(\[]*([${range}${lower}])[*_)\].:]*\s*$`, "gm")],
  ];
  for (const [rule, pattern] of patterns) {
    const match = [...text.matchAll(pattern)].at(-1);
    const found = match?.slice(1).find((group) => group !== undefined);
    if (found) return { letter: found.toUpperCase(), rule };
  }
  const parenthesized = new Set(
    [...text.matchAll(new RegExp(String.raw`\(([${range}])\)`, "g"))].map((m) => m[1]),
  );
  if (parenthesized.size === 1) return { letter: [...parenthesized][0], rule: "parenthesized" };
  const answer = text
    .trim()
    .replace(/[.!]+$/, "")
    .toLowerCase();
  const index = choices.findIndex((choice) => choice.trim().toLowerCase() === answer);
  if (index >= 0 && answer) return { letter: choiceLetters[index], rule: "choice_text" };
  // A choice's full text inside a short answer ("It is Paris.") when exactly one matches.
  const mentioned = choices
    .map((choice, position) => ({
      position,
      found: new RegExp(`\\b${escapeRegExp(choice.trim())}\\b`, "i").test(text),
    }))
    .filter((entry) => entry.found && choices[entry.position].trim().length > 0);
  if (text.length < 200 && mentioned.length === 1)
    return { letter: choiceLetters[mentioned[0].position], rule: "choice_text" };
  return null;
}
