import { displayWidth, padDisplayEnd } from "./displayWidth.js";

/**
 * Left-aligned columns separated by two spaces, the header first; widths fit the widest cell, in
 * terminal columns (a CJK or emoji name takes two per character).
 */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[column] ?? ""))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : padDisplayEnd(cell, widths[column])))
      .join("  ")
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join("\n")}\n`;
}

/** `7.2B`, `350M`, `12K` parameters. */
export function formatCount(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`;
  if (count >= 1e6) return `${Math.round(count / 1e6)}M`;
  if (count >= 1e3) return `${Math.round(count / 1e3)}K`;
  return String(count);
}
