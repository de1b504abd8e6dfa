import { boundedText } from "../../scoring/boundedText.js";

// Python's `str.strip()` / `str.split()` whitespace (`str.isspace`), which differs from JS `\s`:
// U+001C-U+001F and U+0085 are whitespace in Python, U+FEFF is not.
const space = String.raw`[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]`;
const edges = new RegExp(`^${space}+|${space}+$`, "g");
const gaps = new RegExp(`${space}+`);

function strip(text: string): string {
  return text.replace(edges, "");
}

/** LiveCodeBench's `get_stripped_lines`: the whole text stripped, split on `\n`, each line stripped. */
function lines(text: string): string[] {
  const list = strip(text)
    .split("\n")
    .map((line) => strip(line));
  return list.length === 1 && list[0] === "" ? [] : list;
}

/** A number as Python's `Decimal(token)` reads it, reduced so equal values compare equal. */
type DecimalValue =
  | { kind: "finite"; negative: boolean; digits: string; exponent: bigint }
  | { kind: "infinity"; negative: boolean }
  | { kind: "nan" };

function parseDecimal(token: string): DecimalValue | null {
  // Decimal() drops every underscore ("1_000", even "_1") before parsing.
  const text = token.replace(/_/g, "");
  const infinity = /^([+-])?inf(?:inity)?$/i.exec(text);
  if (infinity) return { kind: "infinity", negative: infinity[1] === "-" };
  if (/^[+-]?s?nan\d*$/i.test(text)) return { kind: "nan" };
  const finite = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!finite) return null;
  const whole = finite[2] ?? "";
  const fraction = finite[3] ?? finite[4] ?? "";
  let digits = (whole + fraction).replace(/^0+/, "");
  let exponent = BigInt(finite[5] ?? "0") - BigInt(fraction.length);
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += BigInt(trailing);
  // Every zero (0, -0, 0.000, 0e5) is equal to every other.
  if (digits === "") return { kind: "finite", negative: false, digits: "", exponent: 0n };
  return { kind: "finite", negative: finite[1] === "-", digits, exponent };
}

/** `Decimal.__eq__`: exact value; NaN equals nothing. */
function sameDecimal(left: DecimalValue, right: DecimalValue): boolean {
  if (left.kind === "nan" || right.kind === "nan") return false;
  if (left.kind === "infinity" || right.kind === "infinity")
    return left.kind === right.kind && left.negative === right.negative;
  if (right.kind !== "finite") return false;
  return left.negative === right.negative && left.digits === right.digits && left.exponent === right.exponent;
}

/**
 * LiveCodeBench's rule for one line: equal as text, or else every whitespace-separated token of
 * both lines is a number (`Decimal`) and the two lists are equal exactly (`1.0` and `1`, `0.50`
 * and `.5`; `1000000000000000000` and `1000000000000000001` differ, and there is no float
 * tolerance). A line with any token that is not a number matches only as text.
 */
function sameLine(actual: string, expected: string): boolean {
  if (actual === expected) return true;
  const a = actual.split(gaps).filter(Boolean).map(parseDecimal);
  const b = expected.split(gaps).filter(Boolean).map(parseDecimal);
  if (a.some((value) => value === null) || b.some((value) => value === null)) return false;
  return a.length === b.length && a.every((value, index) => sameDecimal(value!, b[index]!));
}

/**
 * Compares a program's stdout with the expected output as LiveCodeBench's `grade_stdio` does:
 * both stripped and split into lines, each line stripped, the same number of lines, each line
 * equal as text or as a list of decimals. Null when equal, else the first differing line.
 */
export function compareOutput(actual: string, expected: string): string | null {
  const got = lines(actual);
  const want = lines(expected);
  for (let index = 0; index < Math.max(got.length, want.length); index++) {
    if (index < got.length && index < want.length && sameLine(got[index], want[index])) continue;
    const show = (line: string | undefined) =>
      line === undefined ? "(no line)" : JSON.stringify(boundedText(line, 120));
    return `line ${index + 1}: expected ${show(want[index])}, got ${show(got[index])}`;
  }
  return null;
}
