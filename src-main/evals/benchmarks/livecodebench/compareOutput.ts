import { boundedText } from "../../scoring/boundedText.js";

function lines(text: string): string[] {
  const list = text
    .replace(/\r\n?/g, "\n")
    .trimEnd()
    .split("\n")
    .map((line) => line.trim());
  return list.length === 1 && list[0] === "" ? [] : list;
}

/** Tokens equal as text, or as numbers (`1.0` and `1`, `0.50` and `.5`). */
function sameLine(actual: string, expected: string): boolean {
  if (actual === expected) return true;
  const a = actual.split(/\s+/);
  const b = expected.split(/\s+/);
  return (
    a.length === b.length && a.every((token, index) => token === b[index] || sameNumber(token, b[index]))
  );
}

function sameNumber(left: string, right: string): boolean {
  if (
    !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(left) ||
    !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(right)
  ) {
    return false;
  }
  return Number(left) === Number(right);
}

/**
 * Compares a program's stdout with the expected output line by line, ignoring surrounding
 * whitespace and trailing blank lines. Null when equal, else the first differing line.
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
