const blockOpener = /:\s*(#.*)?$/;

function leadingWidth(line: string, tabWidth: number): number {
  let width = 0;
  for (const char of line) {
    if (char === " ") width += 1;
    else if (char === "\t") width += tabWidth;
    else break;
  }
  return width;
}

/**
 * The indentation step a body uses: the smallest extra indent found right after a line that
 * opens a block (`if ...:`). Tabs count as one step; spaces-only bodies default to 4.
 */
function indentStep(lines: string[], tabWidth: number): number {
  let step = Number.POSITIVE_INFINITY;
  for (let index = 0; index + 1 < lines.length; index++) {
    if (!blockOpener.test(lines[index])) continue;
    const next = lines.slice(index + 1).find((line) => line.trim().length > 0);
    if (!next) continue;
    const delta = leadingWidth(next, tabWidth) - leadingWidth(lines[index], tabWidth);
    if (delta > 0) step = Math.min(step, delta);
  }
  return Number.isFinite(step) ? step : 4;
}

/**
 * Re-indents a function body written with any indentation (tabs, 2 spaces, mixed, none) to 4
 * spaces under a `def` line: each line keeps its nesting level relative to the body's least
 * indented line. Lines inside brackets keep a rounded level, which Python ignores there.
 */
export function reindentBody(code: string): string {
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  const spaced = lines.filter((line) => line.trim() && !/^\s*\t/.test(line));
  const spaceStep = indentStep(spaced, 4);
  // A tab is one level: give it the width of one space step so mixed bodies line up.
  const tabWidth = spaceStep;
  const step = indentStep(lines, tabWidth);
  const widths = lines.filter((line) => line.trim()).map((line) => leadingWidth(line, tabWidth));
  const base = widths.length > 0 ? Math.min(...widths) : 0;
  return lines
    .map((line) => {
      if (!line.trim()) return "";
      const level = Math.max(0, Math.round((leadingWidth(line, tabWidth) - base) / step));
      return `${"    ".repeat(level + 1)}${line.trimStart()}`;
    })
    .join("\n");
}
