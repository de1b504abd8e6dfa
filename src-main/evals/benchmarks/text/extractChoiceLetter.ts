import { escapeRegExp } from "./escapeRegExp.js";

/** How a multiple-choice letter was found, most explicit first. */
export type ChoiceRule =
  "answer_is" | "boxed" | "leading" | "bold" | "alone" | "parenthesized" | "choice_text";

export const choiceLetters = "ABCDEFGHIJ";

const openQuote = String.raw`["'“‘]?`;
const closeQuote = String.raw`["'”’]?`;
/** A hedge or emphasis between "is" and the letter: "The answer is likely C", "most probably". */
const adverb = String.raw`(?:(?:[Mm]ost\s+)?(?:${[
  "likely",
  "probably",
  "definitely",
  "clearly",
  "certainly",
  "surely",
  "obviously",
  "undoubtedly",
  "indeed",
  "therefore",
  "thus",
  "then",
  "actually",
  "simply",
]
  .map((word) => `[${word[0]}${word[0]!.toUpperCase()}]${word.slice(1)}`)
  .join("|")})\b,?\s*)?`;

/**
 * The letter a response chose among `choices` (A, B, ...). Robust to "The answer is (B)",
 * "The correct option is C", "C is the correct answer", "I'd go with B", "The answer is likely
 * 'C'", "My choice: C", "I would say A.", "It is C.", "The answer is not A, it's C" (the negated
 * letters skipped), `**B**`, `\boxed{B}`, "<answer>C</answer>", "The answer is [C]",
 * "b)", a leading "C. Paris" and a trailing explanation. A lowercase letter counts only when it is
 * set off ("b)", "(b)", "b." or alone) so the article "a" is not an answer, nor are the words "A"
 * and "I" ("Answer: A good case can be made for (C)"). A choice named in words counts when it is
 * the only one named outside a negation ("It can't be Paris or London, so Berlin").
 * Null when nothing names a letter.
 */
export function extractChoiceLetter(
  response: string,
  givenChoices: readonly string[],
): { letter: string; rule: ChoiceRule } | null {
  // Full-width forms read as ASCII ("Answer：Ｂ", "［B］", "（B）", as models write in a CJK
  // context), the lenticular brackets as square ones ("【B】"); the choices likewise.
  const choices = givenChoices.map((choice) => choice.normalize("NFKC"));
  // Each run of blanks as one (a newline where it has one): the patterns read the same, and a
  // long run ("C" after 1000 spaces) no longer costs minutes of backtracking between their `\s*`.
  const text = response
    .normalize("NFKC")
    .replace(/[【〖〔]/g, "[")
    .replace(/[】〗〕]/g, "]")
    .replace(/\s+/g, (run) => (run.includes("\n") ? "\n" : " "));
  const range = `A-${choiceLetters[choices.length - 1]}`;
  const lower = range.toLowerCase();
  // An uppercase letter not followed by another letter, or a lowercase one that is set off;
  // either maybe quoted ("'C'", "“C”").
  const letter = String.raw`(?:${openQuote}[(\[]?\s*([${range}])(?![A-Za-z])\s*[)\]]?${closeQuote}|\(([${lower}])\)|${openQuote}([${lower}])(?=${closeQuote}(?:[.):]|\s*$)))`;
  const option = String.raw`(?:[Oo]ption|[Cc]hoice|[Ll]etter)?\s*[*_]*\s*`;
  // What may follow a letter named in passing words ("It is C", "I would say A"): the end of the
  // statement or a reason, not more of a sentence ("It is A good ...", "it is A or B", "C, D").
  const settled = String.raw`(?=[*_)\]"'”’]*\s*(?:[.!;]|,(?!\s*(?:(?:and|or)\s+)?\(?[${range}](?![A-Za-z]))|$|(?:because|since|as|which)\b|[-–—]\s))`;
  // Who states the answer: "The answer is", "Correct option:", "The right one is", "My choice:",
  // "the best is".
  const head = String.raw`(?:[Aa]nswer|ANSWER|(?:[Cc]orrect|[Rr]ight|[Bb]est|[Gg]ood|[Ff]inal)\s+(?:[Oo]ption|[Cc]hoice|[Oo]ne)|\b[Tt]he\s+(?:correct|right|best)(?=\s+(?:is|(?:would|should|must)\s+be)\b)|[Mm]y\s+(?:[Cc]hoice|[Pp]ick|[Ss]election)|^[\s*_#]*(?:[Cc]hoice|CHOICE)(?=\s*:))[*_]*(?:\s+(?:is|(?:would|should|must|will|might)\s+be))?`;
  // A letter that starts a list or a verdict on it is not the one chosen: "Answer: A and B are
  // wrong; C", "The answer is A or B".
  const notChosen = String.raw`(?![*_)\]"'”’]*\s*(?:(?:,|\band\b|\bor\b|&|\/)\s*\(?[${range}](?![A-Za-z])|(?:is|are|was|were)\s+(?:wrong|incorrect|false|not\b|out\b|eliminated|ruled\s+out)))`;
  const patterns: [ChoiceRule, RegExp][] = [
    [
      "answer_is",
      new RegExp(
        String.raw`${head}\s*(?:[:=\-–—]|is)?\s*[*_]*\s*${adverb}${option}${letter}${notChosen}`,
        "gm",
      ),
    ],
    // An answer tag, as reasoning models and many answer-format prompts write it: "<answer>C</answer>".
    [
      "answer_is",
      new RegExp(
        String.raw`<(?:answer|ANSWER|Answer)>\s*[*_]*\s*${adverb}${option}${letter}${notChosen}`,
        "gm",
      ),
    ],
    // An answer stated after the options it is not: "The answer is neither A nor B, but C", "The
    // answer is not A but C" (the negated letters themselves never match).
    [
      "answer_is",
      new RegExp(
        String.raw`${head}\s*:?\s*(?:not|neither)\b[^.;\n]*?\b(?:but|rather|instead)\b[\s,]*(?:(?:it(?:'s|\s+is)|the\s+answer\s+is)\s+)?${option}${letter}`,
        "gm",
      ),
    ],
    // "C is the correct answer", "C is the answer", "Option C is correct", "D is right", "I'd go
    // with B", "I'd choose C", "Therefore, C." (a conclusion that is only the letter), "A and B
    // are wrong; C" (the letter that ends the statement after the ones ruled out).
    [
      "answer_is",
      new RegExp(
        String.raw`(?:^|[^A-Za-z])${option}${letter}[*_]*\s+is\s+(?:the\s+)?(?:(?:correct|right|best)\b|(?:final\s+)?answer\b(?!\s+(?:to|for|of|in|on)\b))|(?:go(?:ing)?\s+with|[Ii](?:'d|'ll|\s+would|\s+will)?\s+(?:choose|pick|select))\s+${option}${letter}|(?:[Tt]herefore|[Hh]ence|[Tt]hus|[Ss]o),?\s+${option}${letter}[*_]*[.!]?[ \t]*$|\b(?:wrong|incorrect|false|eliminated|ruled\s+out)\s*[,;:.]\s*(?:(?:so|thus|hence|therefore)\s+)?${option}${letter}[*_]*[.!]?[ \t]*$`,
        "gm",
      ),
    ],
    // "It is C.", "it's D", "I would say A.", "I'd say C": only as a whole statement (`settled`),
    // not after "if" or "whether", and never "It is a good choice" (a lowercase "a" is a word).
    [
      "answer_is",
      new RegExp(
        String.raw`(?<!\b(?:[Ii]f|[Ww]hether|[Ww]hen|[Uu]nless)\s+)(?:\bI(?:'d|\s+would|'ll|\s+will)\s+say|\b[Ii]t(?:'s|\s+is|\s+(?:must|should|would|will)\s+be))\s+${adverb}${option}${letter}${settled}`,
        "gm",
      ),
    ],
    ["boxed", new RegExp(String.raw`\\boxed\{\s*(?:\\text\{)?\s*${letter}`, "g")],
    // Set off at the very start: "B", "B.", "(b)", "**C:** because...", "D - Paris", "Option C".
    [
      "leading",
      new RegExp(
        String.raw`^\s*(?:(?:[Oo]ption|[Cc]hoice)\s+)?[*_(\[]*\s*([${range}${lower}])\s*[*_)\]]*\s*(?:[.:)\-–—]|\n|$)`,
        "g",
      ),
    ],
    ["bold", new RegExp(String.raw`\*\*\s*\(?([${range}])\)?\s*(?:[.:)][^*\n]*)?\*\*`, "g")],
    ["alone", new RegExp(String.raw`^\s*[*_(\[]*([${range}${lower}])[*_)\].:]*\s*$`, "gm")],
  ];
  // Patterns of one rule compete by position: the last statement wins ("The answer is B.
  // Actually, C is correct." chose C).
  for (const rule of new Set(patterns.map(([name]) => name))) {
    const match = patterns
      .filter(([name]) => name === rule)
      .flatMap(([, pattern]) => [...text.matchAll(pattern)])
      .filter((found) => !isEnglishWord(text, found))
      .sort((a, b) => matchEnd(a) - matchEnd(b))
      .at(-1);
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
  // A choice's full text inside a short answer ("It is Paris.") when exactly one is named without
  // a negation before it in its clause ("It can't be Paris or London, so Berlin.").
  const mentioned = choices
    .map((choice, position) => ({ position, named: affirmedMention(text, choice.trim()) }))
    .filter((entry) => entry.named && choices[entry.position].trim().length > 0);
  if (text.length < 200 && mentioned.length === 1)
    return { letter: choiceLetters[mentioned[0].position], rule: "choice_text" };
  return null;
}

function matchEnd(match: RegExpMatchArray): number {
  return (match.index ?? 0) + match[0].length;
}

/**
 * Whether a matched capital "A" or "I" is the English word, not an option letter: it is not set
 * off (no bracket or bold before it, no bracket, period, colon or bold after) and a lowercase word
 * follows that does not go with a letter ("Answer: A good case can be made for (C)", "Answer: I
 * think ..." against "The answer is A because ...").
 */
function isEnglishWord(text: string, match: RegExpMatchArray): boolean {
  const letter = match[1];
  if (letter !== "A" && letter !== "I") return false;
  const end = (match.index ?? 0) + match[0].length;
  const matched = match[0].trimEnd();
  if (/[([*_"'“‘]\s*[AI][)\]]?$/.test(matched) || /[)\]*_"'”’]$/.test(matched)) return false;
  // The letter pattern takes the blank after it: what follows starts at the next word.
  const next = /^\s*([a-z]+)/.exec(text.slice(end));
  if (!next) return false;
  return !/^(?:because|since|as|and|or|is|was|would|should|seems|fits|matches|for|with|in|which|here|there|given|due)$/.test(
    next[1]!,
  );
}

/** Whether `choice` is named in `text` somewhere without a negation earlier in its clause. */
function affirmedMention(text: string, choice: string): boolean {
  if (!choice) return false;
  const pattern = new RegExp(`\\b${escapeRegExp(choice)}\\b`, "gi");
  return [...text.matchAll(pattern)].some((found) => {
    const clause = text
      .slice(0, found.index)
      .split(/[.;!?\n]|,\s*(?:so|but)\b|\b(?:so|but|therefore|thus)\b/i)
      .at(-1)!;
    return !/\b(?:not|no|never|neither|nor|cannot|isn't|aren't|can't|couldn't|wasn't|rather than|instead of)\b|n't\b/i.test(
      clause,
    );
  });
}
