/** How a numeric answer was found, most explicit first. */
export type NumericAnswerRule = "hashes" | "boxed" | "answer_is" | "last_number";

const numberPattern = String.raw`(?:[-−]\$?|\$[-−]?)?\s?(?:\d[\d,]*(?:\.\d+)?|\.\d+)`;
const lastMatch = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].at(-1);

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

/**
 * The final numeric answer of a worked solution: after `#### `, inside `\boxed{}`, after "the answer
 * is" / "answer:", else the last number in the text (the last occurrence of each wins).
 */
export function extractNumericAnswer(text: string): { value: string; rule: NumericAnswerRule } | null {
  const rules: [NumericAnswerRule, RegExp][] = [
    ["hashes", new RegExp(String.raw`####\s*(${numberPattern})`, "g")],
    ["boxed", new RegExp(String.raw`\\boxed\{\s*(?:\\text\{)?\s*(${numberPattern})`, "g")],
    [
      "answer_is",
      new RegExp(String.raw`answer\s*(?:is|:|=)\s*[:*\s]*(?:approximately\s*)?(${numberPattern})`, "gi"),
    ],
    ["last_number", new RegExp(`(${numberPattern})`, "g")],
  ];
  for (const [rule, pattern] of rules) {
    const match = lastMatch(text, pattern);
    const value = match ? normalizeNumber(match[1]) : null;
    if (value !== null) return { value, rule };
  }
  return null;
}

/** Numeric equality of two normalized answers (`18` and `18.0` are equal). */
export function sameNumber(left: string, right: string): boolean {
  if (left === right) return true;
  const a = Number(left);
  const b = Number(right);
  return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}
