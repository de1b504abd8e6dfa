/** Removes the indentation every non-blank line shares (Python's `textwrap.dedent`). */
export function dedent(code: string): string {
  const lines = code.split("\n");
  const indents = lines.filter((line) => line.trim()).map((line) => /^[ \t]*/.exec(line)![0]);
  if (indents.length === 0) return code;
  let common = indents[0];
  for (const indent of indents) while (!indent.startsWith(common)) common = common.slice(0, -1);
  return lines
    .map((line) => (line.startsWith(common) ? line.slice(common.length) : line.trimStart()))
    .join("\n");
}

/** Drops blank lines at both ends, keeping the first line's indentation. */
export function trimBlankLines(code: string): string {
  return code.replace(/^(?:[ \t]*\r?\n)+/, "").replace(/\s+$/, "");
}
