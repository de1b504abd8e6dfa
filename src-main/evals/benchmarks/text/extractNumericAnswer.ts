/** How a numeric answer was found, most explicit first. */
export type NumericAnswerRule = "hashes" | "boxed" | "answer_is" | "last_number";

// The blank allowed after a sign or `$` only: a blank before a bare number would be a second way
// to read each blank of "1 + 1 + ...", exponential backtracking in the worked-expression pattern.
const numberPattern = String.raw`(?:(?:[-−]\$?|\$[-−]?)\s?)?(?:\d[\d,]*(?:\.\d+)?|\.\d+)`;

/**
 * A number as written in an answer to canonical form: `$`, thousands commas, a trailing period and
 * a trailing `.0` removed (`$1,000.00` → `1000`). Null when it is not a number.
 */
export function normalizeNumber(raw: string): string | null {
  const cleaned = raw
    .replace(/[−–]/g, "-")
    .replace(/[$,\s]/g, "")
    .replace(/\.$/, "");
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(cleaned)) return null;
  const value = Number(cleaned);
  if (!Number.isFinite(value)) return null;
  // Integers beyond 2^53 keep their digits; everything else goes through Number.
  if (/^[-+]?\d+(\.0*)?$/.test(cleaned) && !Number.isSafeInteger(value)) {
    return cleaned.replace(/^\+/, "").replace(/\.0*$/, "");
  }
  return String(value);
}

/** A fraction as LaTeX (`\frac{3}{4}`, `\dfrac`, `\tfrac`) or plain (`3/4`): its value, or null. */
const fractionPattern = String.raw`\\[dt]?frac\{\s*(-?\d+(?:\.\d+)?)\s*\}\{\s*(-?\d+(?:\.\d+)?)\s*\}|(-?\d+)\s*/\s*(\d+)(?![\d/])`;

function fractionValue(numerator: string, denominator: string): string | null {
  const value = Number(numerator) / Number(denominator);
  return Number.isFinite(value) ? normalizeNumber(String(Number(value.toPrecision(12)))) : null;
}

/** One operand of a worked expression: a number or `\frac{}{}` in brackets, maybe with a unit ("9 eggs"). */
const operand = String.raw`(?:\(\s*)*(?:${numberPattern}|\\[dt]?frac\{[^{}]*\}\{[^{}]*\})(?:\s*\))*\s*(?:[a-z%]+\s*)?`;
/** What joins operands (LaTeX `\times`, `\cdot`, `\div` are read as these first). */
const operator = String.raw`[-−+*/×x÷·]`;
const term = String.raw`${operand}(?:${operator}\s*${operand})*`;
/**
 * A worked expression from the start: operands joined by operators ("9 × $2", "2 * (16 - 3 - 4)",
 * "1/2 * 36"), then one or more `=` ("16 - 3 - 4 = 9 eggs * $2 = $18"); its value is the number
 * after the last `=` that is followed by one.
 */
const workedPattern = new RegExp(
  String.raw`^\s*${operand}(?:${operator}\s*${operand})+(?:=\s*${term})*=\s*(${numberPattern})`,
  "i",
);

/**
 * The value an answer's text states, starting at its first number: a worked expression ("9 * 2 =
 * 18", "9 × $2 = $18 a day", "1/2 * 36 = 18") gives the result after its last `=`, and a fraction
 * (`3/4`, `\frac{3}{4}`) is divided out.
 */
function statedValue(rest: string): string | typeof hedge | null {
  const worked = workedPattern.exec(rest);
  if (worked) return normalizeNumber(worked[1]!);
  // A mixed number ("3 1/2", "3 and 1/2", "3½", "3\\frac{1}{2}") is its whole and its fraction.
  const mixed = new RegExp(
    String.raw`^[\s$]*(\d+)(?:[ \u00a0]+(?:and[ \u00a0]+)?(\d+)\s*/\s*(\d+)(?![\d/.])|\s*\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\})`,
  ).exec(rest);
  if (mixed) {
    const [numerator, denominator] = mixed[2] !== undefined ? [mixed[2], mixed[3]] : [mixed[4], mixed[5]];
    const part = fractionValue(numerator!, denominator!);
    return part === null
      ? null
      : normalizeNumber(String(Number((Number(mixed[1]) + Number(part)).toPrecision(12))));
  }
  const fraction = new RegExp(String.raw`^[\s$]*(?:${fractionPattern})`).exec(rest);
  if (fraction) {
    const [numerator, denominator] =
      fraction[1] !== undefined ? [fraction[1], fraction[2]] : [fraction[3], fraction[4]];
    return fractionValue(numerator!, denominator!);
  }
  const first = new RegExp(String.raw`^\s*(${numberPattern})`).exec(rest);
  if (!first) return null;
  // A range ("18-20", "18 to 20") or a clock time ("18:00") is a hedge, not the number.
  if (/^\s*[-–—]\s*\$?\d|^\s*to\s+\$?\d|^:\d/.test(rest.slice(first[0].length))) return hedge;
  return normalizeNumber(first[1]!);
}

/** Unicode's vulgar fractions, written out. */
const vulgarFractions: Record<string, string> = {
  "¼": "1/4",
  "½": "1/2",
  "¾": "3/4",
  "⅐": "1/7",
  "⅑": "1/9",
  "⅒": "1/10",
  "⅓": "1/3",
  "⅔": "2/3",
  "⅕": "1/5",
  "⅖": "2/5",
  "⅗": "3/5",
  "⅘": "4/5",
  "⅙": "1/6",
  "⅚": "5/6",
  "⅛": "1/8",
  "⅜": "3/8",
  "⅝": "5/8",
  "⅞": "7/8",
};

/** What `statedValue` answers for a range or a clock time: the answer given is no number. */
const hedge = Symbol("hedge");

/**
 * A model that goes on past its answer to write the next "Question:" (base models do, as in
 * few-shot prompts) has answered already: the text from that line on is not its answer.
 */
function withoutInventedQuestions(text: string): string {
  const next = /\n\s*(?:Question|Q)\s*:/.exec(text);
  return next && /\d/.test(text.slice(0, next.index)) ? text.slice(0, next.index) : text;
}

/**
 * The final numeric answer of a worked solution: the first `#### ` (what follows a first one is
 * the model going on), the last `\boxed{}`, the last `<answer>` tag, the last "the answer is" / "answer:" (markdown allowed
 * around the words: `**Answer**: $18`, "Final Answer" as a heading), else the last number in the
 * text. LaTeX thousands separators (`1{,}234`, `1\,234`) are read as commas; a fraction is
 * divided out; "answer is 9 * 2 = 18" states 18.
 */
export function extractNumericAnswer(text: string): { value: string; rule: NumericAnswerRule } | null {
  const cleaned = withoutInventedQuestions(text)
    // Full-width forms as ASCII ("The answer is １８", "答案：１８"), as models write in a CJK context.
    .replace(/[\uff01-\uff5e]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0))
    .replace(/(\d)\{,\}(?=\d)/g, "$1,")
    // "1\,234", and the comma with a LaTeX space after it as MATH-style answers write it ("1,\!080").
    .replace(/(\d),?\\[,!;:]\s?(?=\d{3})/g, "$1,")
    .replace(/\\\$/g, "$")
    // Unicode fractions as plain ones: "3½" → "3 1/2", "¾" → "3/4", "1⁄2" (fraction slash) → "1/2".
    .replace(
      /(\d)?([¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])/g,
      (_all, whole: string | undefined, glyph: string) =>
        `${whole ? `${whole} ` : ""}${vulgarFractions[glyph]}`,
    )
    .replace(/(\d)\s*\u2044\s*(?=\d)/g, "$1/")
    // LaTeX operators and brackets read as the plain ones ("$9 \times 2 = 18$").
    .replace(/\\(?:times|cdot|ast)(?![a-zA-Z])\s*/g, "× ")
    .replace(/\\div(?![a-zA-Z])\s*/g, "÷ ")
    .replace(/\\(?:left|right)(?=[()])/g, "")
    // A markdown bullet ("- 18" on its own line) is not a minus sign.
    .replace(/^(\s*)[-*+•]\s+(?=[$\d])/gm, "$1")
    // Spoken operators between numbers ("20 minus 5 = 15") read as the symbols.
    .replace(
      /(\d)\s+(minus|plus|times)\s+(?=\$?\d)/gi,
      (_all, digit: string, word: string) =>
        `${digit} ${{ minus: "-", plus: "+", times: "*" }[word.toLowerCase() as "minus"]} `,
    )
    // Spoken signs: "minus 10", "negative 10" (not "20 minus 5", a subtraction).
    .replace(/(?<![\d)]\s*)\b(?:minus|negative)\s+(?=\$?\d)/gi, "-")
    // Thousands set off by spaces ("70 000", "70\u202f000"), as SI and many languages write them.
    .replace(/(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d.,]\d)/g, (digits) =>
      digits.replace(/[ \u00a0\u202f\u2009]/g, ","),
    );
  const rules: [NumericAnswerRule, RegExp, "first" | "last"][] = [
    ["hashes", /####\s*/g, "first"],
    ["boxed", /\\boxed\{\s*(?:\\text\{)?\s*/g, "last"],
    // An answer tag (reasoning models, answer-format prompts): "<answer>18</answer>".
    ["answer_is", /<answer>\s*(?:[*_]+\s*)?/gi, "last"],
    ["answer_is", /answer\s*[*_]*\s*(?:is|:|=|[*_#]*\s*\n)[\s:*_]*(?:approximately\s*|about\s*)?/gi, "last"],
  ];
  let hedged = false;
  for (const [rule, pattern, which] of rules) {
    const matches = [...cleaned.matchAll(pattern)];
    const ordered = which === "first" ? matches : matches.reverse();
    for (const match of ordered) {
      const value = statedValue(cleaned.slice(match.index + match[0].length));
      if (value === hedge) hedged = true;
      else if (value !== null) return { value, rule };
    }
  }
  // An answer stated as a range or a time ("The answer is 18-20") is no answer: the last number
  // of the text is one end of that same hedge.
  if (hedged) return null;
  const last = [...cleaned.matchAll(new RegExp(`(${numberPattern})`, "g"))].at(-1);
  if (!last) return null;
  // The same for a text that ends on one ("It takes 18-20 minutes", "at 19:20"): "-20" there is
  // the range's dash, not a sign. ("from 18 to 20" is a change, often the answer: kept.)
  const before = cleaned.slice(0, last.index);
  const number = last[1]!;
  if (
    (/^[-−]/.test(number) && /\d\s*$/.test(before)) ||
    /\d\s*[–—]\s*\$?$/.test(before) ||
    (/\d:$/.test(before) && /^\d/.test(number))
  )
    return null;
  const value = normalizeNumber(last[1]!);
  return value === null ? null : { value, rule: "last_number" };
}

/** Numeric equality of two normalized answers (`18` and `18.0` are equal). */
export function sameNumber(left: string, right: string): boolean {
  if (left === right) return true;
  const a = Number(left);
  const b = Number(right);
  return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}
